#include "backend/xnnpack/partition_steps.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "backend/xnnpack/partition_body.h"
#include "ir/type.h"

namespace collage::xnnpack {
namespace {

// The call a body call is defined as: a fused add as its producer, with the bias folded in.
const CallNode& DefinedCall(const CallNode& call, const BiasFusion& fusion) {
  const auto fused = fusion.producer_of_add.find(&call);
  return fused == fusion.producer_of_add.end() ? call : *fused->second;
}

// The computed values (parameters and calls, constants aside) a defined call reads.
std::vector<const ExprNode*> Operands(const CallNode& defined) {
  std::vector<const ExprNode*> operands;
  for (const Expr& arg : defined.args) {
    const Expr value = ForwardProjections(arg);
    if (!As<ConstantNode>(value)) operands.push_back(value.get());
  }
  return operands;
}

int64_t ElementCount(const ExprNode& value) { return NumElements(AsTensorType(value.checked_type())->shape); }

// The host op that computes `call`, if the executable computes it itself.
std::optional<HostStep> HostStepOf(const CallNode& call) {
  HostStep host;
  if (const std::optional<HostBinary> binary = HostBinaryOf(call)) {
    host.binary = *binary;
    return host;
  }
  if (const std::optional<HostGlobalAveragePool> pool = HostGlobalAveragePoolOf(call)) {
    host.kind = HostStep::Kind::kGlobalAveragePool;
    host.pool = *pool;
    return host;
  }
  return std::nullopt;
}

// Scratch buffers handed out and taken back: a request takes the smallest free buffer that
// holds it, else grows the largest free one, else adds a buffer.
class ScratchBuffers {
 public:
  size_t Take(int64_t elements) {
    std::optional<size_t> fitting, largest;
    for (size_t index : free_) {
      if (sizes_[index] >= elements && (!fitting || sizes_[index] < sizes_[*fitting])) fitting = index;
      if (!largest || sizes_[index] > sizes_[*largest]) largest = index;
    }
    std::optional<size_t> chosen = fitting ? fitting : largest;
    if (!chosen) {
      sizes_.push_back(elements);
      return sizes_.size() - 1;
    }
    free_.erase(std::find(free_.begin(), free_.end(), *chosen));
    sizes_[*chosen] = std::max(sizes_[*chosen], elements);
    return *chosen;
  }
  void Give(size_t index) { free_.push_back(index); }
  std::vector<int64_t> sizes() const { return sizes_; }

 private:
  std::vector<int64_t> sizes_;
  std::vector<size_t> free_;
};

// The source of each flattened result; computed results get their buffer later. `computed`
// receives the output index of each computed result's first occurrence.
std::vector<OutputSource> PlanOutputs(const Function& function, const std::vector<Expr>& results,
                                      std::unordered_map<const ExprNode*, size_t>& computed) {
  std::vector<OutputSource> outputs;
  for (const Expr& result : results) {
    OutputSource source;
    source.shape = AsTensorType(result->checked_type())->shape;
    if (const auto* constant = As<ConstantNode>(result)) {
      source.kind = OutputSource::Kind::kConstant;
      source.constant = constant->data;
    } else if (As<VarNode>(result)) {
      source.kind = OutputSource::Kind::kParameter;
      const auto param = std::find_if(function->params.begin(), function->params.end(),
                                      [&](const Var& p) { return p.get() == result.get(); });
      source.index = static_cast<size_t>(param - function->params.begin());
    } else if (const auto seen = computed.find(result.get()); seen != computed.end()) {
      source.kind = OutputSource::Kind::kSameAs;
      source.index = seen->second;
    } else {
      computed[result.get()] = outputs.size();
    }
    outputs.push_back(std::move(source));
  }
  return outputs;
}

}  // namespace

PartitionSteps PlanPartitionSteps(const Function& function, const std::vector<Expr>& post_order,
                                  const std::vector<Expr>& results, const BiasFusion& fusion) {
  PartitionSteps plan;
  std::unordered_map<const ExprNode*, size_t> computed_results;
  plan.outputs = PlanOutputs(function, results, computed_results);

  // Steps: runs of XNNPACK calls between host ops.
  std::vector<std::vector<const CallNode*>> calls_of_step;
  std::unordered_map<const ExprNode*, size_t> step_of;
  for (const Expr& expr : post_order) {
    const auto* call = As<CallNode>(expr);
    if (!call || fusion.add_of_producer.count(call)) continue;
    if (std::optional<HostStep> host = HostStepOf(*call)) {
      plan.steps.push_back({true, {}, *host});
      calls_of_step.emplace_back();
    } else if (plan.steps.empty() || plan.steps.back().is_host) {
      plan.steps.emplace_back();
      calls_of_step.emplace_back();
    }
    calls_of_step.back().push_back(call);
    step_of[call] = plan.steps.size() - 1;
  }

  std::unordered_map<const ExprNode*, BufferRef> location;
  for (size_t i = 0; i < function->params.size(); ++i) {
    location[function->params[i].get()] = {BufferRef::Kind::kInput, i};
  }
  std::unordered_map<const ExprNode*, size_t> last_read;
  std::unordered_set<const ExprNode*> read_by_another_step;
  for (size_t step = 0; step < plan.steps.size(); ++step) {
    for (const CallNode* call : calls_of_step[step]) {
      for (const ExprNode* operand : Operands(DefinedCall(*call, fusion))) {
        const auto producer = step_of.find(operand);
        if (producer == step_of.end()) continue;  // a parameter
        if (producer->second != step) read_by_another_step.insert(operand);
        last_read[operand] = std::max(last_read[operand], step);
      }
    }
  }

  // Buffers: a value read by another step, or computed by a host op, gets a scratch buffer
  // unless it is only a result; a value only a runtime reads stays inside it.
  ScratchBuffers scratch;
  std::vector<std::vector<size_t>> given_back_after(plan.steps.size());
  for (size_t step = 0; step < plan.steps.size(); ++step) {
    for (const CallNode* call : calls_of_step[step]) {
      const auto result = computed_results.find(call);
      const bool crosses = read_by_another_step.count(call) > 0;
      if (!crosses && !plan.steps[step].is_host && result == computed_results.end()) continue;
      if (!crosses && result != computed_results.end()) {
        location[call] = {BufferRef::Kind::kOutput, result->second};
      } else {
        location[call] = {BufferRef::Kind::kScratch, scratch.Take(ElementCount(*call))};
        // A scratch buffer holding a result is read after the last step.
        if (result == computed_results.end()) {
          const auto read = last_read.find(call);
          given_back_after[read == last_read.end() ? step : read->second].push_back(location[call].index);
        }
      }
      if (result != computed_results.end()) plan.outputs[result->second].buffer = location[call];
    }
    // Only once the step's own values have buffers, so that no step writes a buffer it reads.
    for (size_t index : given_back_after[step]) scratch.Give(index);
  }
  plan.scratch_elements = scratch.sizes();

  for (size_t step = 0; step < plan.steps.size(); ++step) {
    PartitionStep& planned = plan.steps[step];
    if (planned.is_host) {
      const CallNode* call = calls_of_step[step].front();
      const std::vector<const ExprNode*> operands = Operands(*call);
      planned.host.out = location.at(call);
      if (planned.host.kind == HostStep::Kind::kGlobalAveragePool) {
        planned.host.lhs = location.at(operands.at(0));
        continue;
      }
      const bool gate_first = planned.host.binary.gate_first;
      planned.host.lhs = location.at(operands.at(gate_first ? 1 : 0));
      planned.host.rhs = location.at(operands.at(gate_first ? 0 : 1));
      continue;
    }
    RuntimeStep& runtime = planned.runtime;
    runtime.calls = calls_of_step[step];
    std::unordered_set<const ExprNode*> seen;
    for (const CallNode* call : runtime.calls) {
      for (const ExprNode* operand : Operands(DefinedCall(*call, fusion))) {
        const auto producer = step_of.find(operand);
        if (producer != step_of.end() && producer->second == step) continue;
        if (seen.insert(operand).second) runtime.inputs.emplace_back(operand, location.at(operand));
      }
    }
    for (const CallNode* call : runtime.calls) {
      if (const auto found = location.find(call); found != location.end()) runtime.outputs.emplace_back(call, found->second);
    }
  }
  return plan;
}

}  // namespace collage::xnnpack
