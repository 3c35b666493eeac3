#include "backend/xnnpack/partition_steps.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "backend/xnnpack/host_silu.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"
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

// The host op that computes `defined` (a body call, or the producer of a fused add), if the
// executable computes it itself.
std::optional<HostStep> HostStepOf(const CallNode& defined, const BiasFusion& fusion) {
  HostStep host;
  if (const std::optional<HostBinary> binary = HostBinaryOf(defined)) {
    host.binary = *binary;
    return host;
  }
  if (const std::optional<HostGlobalAveragePool> pool = HostGlobalAveragePoolOf(defined)) {
    host.kind = HostStep::Kind::kGlobalAveragePool;
    host.pool = *pool;
    return host;
  }
  const auto bias = fusion.bias_of_producer.find(&defined);
  if (std::optional<HostDepthwise> depthwise =
          HostDepthwiseOf(defined, bias == fusion.bias_of_producer.end() ? nullptr : &bias->second)) {
    host.kind = HostStep::Kind::kDepthwise;
    host.depthwise = std::move(*depthwise);
    return host;
  }
  return std::nullopt;
}

// Calls a host step computes besides the one it stands for (its tail): the sigmoid of a SiLU
// (host_silu.h), and the depthwise convolution whose relu, clip or SiLU the step applies to its
// sums (host_depthwise.h) when nothing else reads the convolution's value.
struct HostEpilogues {
  struct Tail {
    const CallNode* source;  // the call whose operands the step reads
    HostStep host;
  };
  std::unordered_map<const ExprNode*, Tail> tails;
  std::unordered_set<const ExprNode*> absorbed;
};

std::optional<std::pair<float, float>> ClampBounds(const CallNode& call) {
  if (!call.op() || call.args.size() != 1 || !UnsupportedReason(call).empty()) return std::nullopt;
  if (call.op()->name == "nn.relu") return std::make_pair(0.0f, std::numeric_limits<float>::infinity());
  if (call.op()->name == "clip") {
    return std::make_pair(static_cast<float>(call.attrs.GetFloat("a_min")),
                          static_cast<float>(call.attrs.GetFloat("a_max")));
  }
  return std::nullopt;
}

// An expanding 1x1 convolution, its bias and activation (relu, clip, SiLU or none) that a
// depthwise step can compute on the fly (host_depthwise.h): the calls computing the depthwise
// convolution's data, read by nothing else.
struct Expansion {
  const CallNode* convolution;          // the 1x1 convolution, whose data the step reads
  std::vector<const ExprNode*> calls;  // the calls the step absorbs
  HostExpandedDepthwise expanded;      // its expansion fields
};

// Expanded images smaller than this many rows stay two steps: each thread would expand a large
// share of its rows twice (the rows its neighbour's band also reads).
constexpr int64_t kMinExpandedRows = 28;
// Wider expansions stay in XNNPACK, whose GEMM outruns the step's broadcast loop there.
constexpr int64_t kMaxExpandedInputChannels = 64;

std::optional<Expansion> ExpansionOf(const CallNode& depthwise_conv, const HostDepthwise& depthwise,
                                     const std::unordered_map<const ExprNode*, int>& uses, const BiasFusion& fusion) {
  if (depthwise.in_height < kMinExpandedRows) return std::nullopt;
  const auto single_use = [&](const ExprNode* value, int readers) { return uses.at(value) == readers; };
  Expansion expansion;
  const auto* data = As<CallNode>(depthwise_conv.args[0]);
  if (!data || !single_use(data, 1)) return std::nullopt;
  const CallNode* expanded = data;
  std::pair<float, float> bounds(-std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity());
  if (const std::optional<std::pair<float, float>> clamp = ClampBounds(*data)) {
    expanded = As<CallNode>(data->args[0]);
    if (!expanded || !single_use(expanded, 1)) return std::nullopt;
    bounds = *clamp;
    expansion.calls.push_back(data);
  } else if (const CallNode* sigmoid = SiluSigmoidOf(*data)) {
    expanded = As<CallNode>(sigmoid->args[0]);
    if (!expanded || !single_use(sigmoid, 1) || !single_use(expanded, 2)) return std::nullopt;
    expansion.expanded.expand_silu = true;
    expansion.calls.push_back(data);
    expansion.calls.push_back(sigmoid);
  }
  if (fusion.add_of_producer.count(expanded)) return std::nullopt;
  const CallNode& conv = DefinedCall(*expanded, fusion);
  if (!conv.op() || conv.op()->name != "nn.conv2d" || !UnsupportedReason(conv).empty()) return std::nullopt;
  const auto* weight = As<ConstantNode>(conv.args[1]);
  if (!weight || IsConstant(conv.args[0])) return std::nullopt;
  const Shape& kernel = weight->data.shape();  // O, I, KH, KW
  const auto all_equal = [&](const char* attr, int64_t value) {
    const std::vector<int64_t>& values = conv.attrs.GetInts(attr);
    return std::all_of(values.begin(), values.end(), [&](int64_t v) { return v == value; });
  };
  if (conv.attrs.GetInt("groups") != 1 || kernel[2] != 1 || kernel[3] != 1 || kernel[0] != depthwise.channels ||
      kernel[1] > kMaxExpandedInputChannels || !all_equal("strides", 1) || !all_equal("padding", 0) ||
      !all_equal("dilation", 1)) {
    return std::nullopt;
  }
  expansion.convolution = &conv;
  expansion.calls.push_back(expanded);
  HostExpandedDepthwise& fields = expansion.expanded;
  fields.in_channels = kernel[1];
  fields.expand_min = bounds.first;
  fields.expand_max = bounds.second;
  const int64_t channels = kernel[0];
  const float* oi = weight->data.data<float>();
  fields.expand_weights.resize(static_cast<size_t>(channels * fields.in_channels));
  for (int64_t o = 0; o < channels; ++o) {
    for (int64_t i = 0; i < fields.in_channels; ++i) {
      fields.expand_weights[i * channels + o] = oi[o * fields.in_channels + i];
    }
  }
  fields.expand_bias.assign(static_cast<size_t>(channels), 0.0f);
  if (const auto bias = fusion.bias_of_producer.find(&conv); bias != fusion.bias_of_producer.end()) {
    std::copy_n(bias->second.data<float>(), channels, fields.expand_bias.begin());
  }
  return expansion;
}

HostEpilogues PlanHostEpilogues(const std::vector<Expr>& post_order, const std::vector<Expr>& results,
                                const BiasFusion& fusion) {
  HostEpilogues epilogues;
  const std::unordered_map<const ExprNode*, int> uses = CountUses(post_order, results);
  // The host depthwise step of `value` if `readers` calls read it and nothing else does.
  const auto depthwise_of = [&](const Expr& value, int readers) -> std::optional<HostStep> {
    const auto* call = As<CallNode>(value);
    if (!call || uses.at(call) != readers || fusion.add_of_producer.count(call)) return std::nullopt;
    std::optional<HostStep> host = HostStepOf(DefinedCall(*call, fusion), fusion);
    if (!host || host->kind != HostStep::Kind::kDepthwise) return std::nullopt;
    return host;
  };
  for (const Expr& expr : post_order) {
    const auto* call = As<CallNode>(expr);
    if (!call) continue;
    if (const std::optional<std::pair<float, float>> bounds = ClampBounds(*call)) {
      std::optional<HostStep> host = depthwise_of(call->args[0], 1);
      if (!host) continue;
      host->depthwise.output_min = bounds->first;
      host->depthwise.output_max = bounds->second;
      epilogues.absorbed.insert(call->args[0].get());
      epilogues.tails[call] = {&DefinedCall(*As<CallNode>(call->args[0]), fusion), std::move(*host)};
      continue;
    }
    const CallNode* sigmoid = SiluSigmoidOf(*call);
    if (!sigmoid || uses.at(sigmoid) != 1) continue;
    if (std::optional<HostStep> host = depthwise_of(sigmoid->args[0], 2)) {
      host->depthwise.silu = true;
      epilogues.absorbed.insert(sigmoid);
      epilogues.absorbed.insert(sigmoid->args[0].get());
      epilogues.tails[call] = {&DefinedCall(*As<CallNode>(sigmoid->args[0]), fusion), std::move(*host)};
    } else if (const std::optional<HostSilu> silu = HostSiluOf(*call)) {
      HostStep step;
      step.kind = HostStep::Kind::kSilu;
      step.silu = *silu;
      epilogues.absorbed.insert(sigmoid);
      epilogues.tails[call] = {sigmoid, std::move(step)};
    }
  }
  // Depthwise steps whose input an expanding convolution computes: the step computes it too.
  for (const Expr& expr : post_order) {
    const auto* call = As<CallNode>(expr);
    if (!call || epilogues.absorbed.count(call) || fusion.add_of_producer.count(call)) continue;
    // The call's depthwise step: its tail's, or its own.
    const auto tail = epilogues.tails.find(call);
    std::optional<HostStep> own;
    if (tail == epilogues.tails.end()) own = HostStepOf(DefinedCall(*call, fusion), fusion);
    HostStep* host = tail == epilogues.tails.end() ? (own ? &*own : nullptr) : &tail->second.host;
    if (!host || host->kind != HostStep::Kind::kDepthwise) continue;
    const CallNode& convolution = tail == epilogues.tails.end() ? DefinedCall(*call, fusion) : *tail->second.source;
    std::optional<Expansion> expansion = ExpansionOf(convolution, host->depthwise, uses, fusion);
    if (!expansion) continue;
    host->kind = HostStep::Kind::kExpandedDepthwise;
    host->expanded = std::move(expansion->expanded);
    host->expanded.depthwise = std::move(host->depthwise);
    epilogues.tails[call] = {expansion->convolution, std::move(*host)};
    for (const ExprNode* absorbed : expansion->calls) {
      epilogues.absorbed.insert(absorbed);
      epilogues.tails.erase(absorbed);
    }
  }
  return epilogues;
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

  // The call whose operands a body call reads: the producer of a fused add, the source of a
  // host step's tail.
  const HostEpilogues epilogues = PlanHostEpilogues(post_order, results, fusion);
  const auto computed_call = [&](const CallNode& call) -> const CallNode& {
    const auto tail = epilogues.tails.find(&call);
    return tail == epilogues.tails.end() ? DefinedCall(call, fusion) : *tail->second.source;
  };

  // Steps: runs of XNNPACK calls between host ops.
  std::vector<std::vector<const CallNode*>> calls_of_step;
  std::unordered_map<const ExprNode*, size_t> step_of;
  for (const Expr& expr : post_order) {
    const auto* call = As<CallNode>(expr);
    if (!call || fusion.add_of_producer.count(call) || epilogues.absorbed.count(call)) continue;
    const auto tail = epilogues.tails.find(call);
    std::optional<HostStep> host =
        tail == epilogues.tails.end() ? HostStepOf(DefinedCall(*call, fusion), fusion) : tail->second.host;
    if (host) {
      plan.steps.push_back({true, {}, std::move(*host)});
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
      for (const ExprNode* operand : Operands(computed_call(*call))) {
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
      const std::vector<const ExprNode*> operands = Operands(computed_call(*call));
      planned.host.out = location.at(call);
      if (planned.host.kind != HostStep::Kind::kBinary) {
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
