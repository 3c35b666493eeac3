#include "backend/onednn/concat_in_place.h"

#include <algorithm>
#include <unordered_set>

#include "backend/onednn/lowering.h"

namespace collage::onednn {
namespace {

bool IsChannelConcatOfOneImage(const FlatPartition& partition, const FlatCall& call) {
  if (call.op != "concatenate" || call.inputs.empty()) return false;
  const Shape& shape = partition.value(call.output).shape;
  if (shape.size() != 4 || shape[0] != 1) return false;
  int64_t axis = call.call->attrs.GetInt("axis");
  if (axis < 0) axis += 4;
  if (axis != 1) return false;
  std::unordered_set<int> seen;
  for (int input : call.inputs) {
    if (partition.value(input).shape.size() != 4 || !seen.insert(input).second) return false;
  }
  return true;
}

bool IsPrefix(const std::vector<int>& prefix, const std::vector<int>& of) {
  return prefix.size() <= of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

}  // namespace

ConcatPlan PlanConcatsInPlace(const FlatPartition& partition) {
  ConcatPlan plan;
  plan.group_of_call.assign(partition.calls.size(), -1);
  std::vector<int> concats;
  for (size_t i = 0; i < partition.calls.size(); ++i) {
    if (IsChannelConcatOfOneImage(partition, partition.calls[i])) concats.push_back(static_cast<int>(i));
  }
  // Longest first, so that a group is founded by the concatenation whose buffer holds the others.
  std::stable_sort(concats.begin(), concats.end(), [&](int a, int b) {
    return partition.calls[a].inputs.size() > partition.calls[b].inputs.size();
  });
  std::vector<int> group_of_value(partition.values.size(), -1);
  for (int index : concats) {
    const std::vector<int>& inputs = partition.calls[index].inputs;
    int joined = -1;
    for (size_t g = 0; g < plan.groups.size() && joined < 0; ++g) {
      if (IsPrefix(inputs, plan.groups[g].members)) joined = static_cast<int>(g);
    }
    if (joined < 0) {
      const bool shares_an_input = std::any_of(inputs.begin(), inputs.end(), [&](int input) {
        return group_of_value[static_cast<size_t>(input)] >= 0;
      });
      if (shares_an_input) continue;
      ConcatGroup group;
      group.members = inputs;
      for (int input : inputs) group.channels.push_back(partition.value(input).shape[1]);
      group.shape = partition.value(partition.calls[index].output).shape;
      joined = static_cast<int>(plan.groups.size());
      for (int input : inputs) group_of_value[static_cast<size_t>(input)] = joined;
      plan.groups.push_back(std::move(group));
    }
    plan.group_of_call[static_cast<size_t>(index)] = joined;
  }
  return plan;
}

int64_t ContiguousChannelBlock(const dnnl::memory::desc& desc) {
  const dnnl::memory::dims dims = desc.dims();
  if (dims.size() != 4) return 0;
  if (desc == PlainDesc(Shape(dims.begin(), dims.end()))) return 1;
  for (const auto& [tag, block] : {std::pair{dnnl::memory::format_tag::aBcd8b, int64_t{8}},
                                   std::pair{dnnl::memory::format_tag::aBcd16b, int64_t{16}}}) {
    if (desc == dnnl::memory::desc(dims, desc.data_type(), tag)) return block;
  }
  return 0;
}

}  // namespace collage::onednn
