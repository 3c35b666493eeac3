#include "backend/onednn/partition_lowering.h"

#include <algorithm>

#include "backend/onednn/concat_in_place.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/op_families.h"
#include "backend/onednn/primitive_builders.h"

namespace collage::onednn {
namespace {

OpFamily CheckedFamily(const Lowering& lowering, const FlatCall& call) {
  const std::optional<OpFamily> family = FamilyOf(call.op);
  if (!family) lowering.Fail("op " + call.op + " is not supported");
  const DType dtype = lowering.value(call.output).dtype;
  if (dtype != DType::kF32) {
    lowering.Fail(call.op + " computing " + std::string(DTypeName(dtype)) + " (only f32 is supported)");
  }
  return *family;
}

// The axis a fused bias runs along: channels of a convolution, columns of a product (none
// when numpy matmul promoted a vector, which drops that axis from the result).
int ChannelAxis(const Lowering& lowering, const FlatCall& call, OpFamily family) {
  if (family == OpFamily::kConvolution) return 1;
  if (call.op == "nn.matmul" &&
      (lowering.value(call.inputs[0]).shape.size() == 1 || lowering.value(call.inputs[1]).shape.size() == 1)) {
    return -1;
  }
  return static_cast<int>(lowering.value(call.output).shape.size()) - 1;
}

void LowerUnfused(Lowering& lowering, const FlatCall& call, OpFamily family) {
  switch (family) {
    case OpFamily::kPooling:
      return LowerPooling(lowering, call);
    case OpFamily::kEltwise: {
      const std::optional<EltwiseSpec> spec = EltwiseOf(call);
      if (!spec) lowering.Fail(call.op + " with attributes " + call.call->attrs.ToString());
      return LowerEltwise(lowering, call, *spec);
    }
    case OpFamily::kBinary:
      LowerBinary(lowering, call);
      return;
    case OpFamily::kNormalization:
      return LowerNormalization(lowering, call);
    case OpFamily::kReshape:
      return LowerReshape(lowering, call);
    case OpFamily::kTranspose:
      return LowerTranspose(lowering, call);
    case OpFamily::kConcat:
      return LowerConcat(lowering, call);
    case OpFamily::kConvolution:
    case OpFamily::kMatmul:
      break;
  }
  lowering.Fail("internal: " + call.op + " must be lowered with its epilogue");
}

bool IsAnchor(OpFamily family) {
  return family == OpFamily::kConvolution || family == OpFamily::kMatmul || family == OpFamily::kBinary;
}

Epilogue CollectAnchorEpilogue(const Lowering& lowering, const FlatCall& call, int anchor, OpFamily family,
                               const std::vector<bool>& fused) {
  const FlatPartition& flat = lowering.partition();
  if (family == OpFamily::kBinary) {
    const bool is_image = lowering.value(call.output).shape.size() == 4;
    return CollectEpilogue(flat, anchor, is_image ? 1 : -1, fused, FusedPostOps::kEltwise);
  }
  // oneDNN 2.6's deconvolution applies post-ops in a slow path: a fused relu made DCGAN's
  // layers 2-10x slower than the deconvolution and a separate eltwise primitive.
  const FusedPostOps post_ops = call.op == "nn.conv2d_transpose" ? FusedPostOps::kNone : FusedPostOps::kEltwiseAndSum;
  return CollectEpilogue(flat, anchor, ChannelAxis(lowering, call, family), fused, post_ops);
}

std::string OperandShapes(const Lowering& lowering, const FlatCall& call) {
  std::string text;
  for (int input : call.inputs) text += (text.empty() ? "" : ", ") + ShapeToString(lowering.value(input).shape);
  return text;
}

}  // namespace

Program LowerPartition(FlatPartition partition, const dnnl::engine& engine) {
  Lowering lowering(std::move(partition), engine);
  const FlatPartition& flat = lowering.partition();
  const int count = static_cast<int>(flat.calls.size());

  // Plan: each convolution / product / binary op absorbs its epilogue; the group is lowered at
  // its last call.
  std::vector<OpFamily> families;
  std::vector<int> anchor_of(count, -1);
  std::vector<bool> fused(count, false);
  std::vector<Epilogue> epilogues(count);
  for (int i = 0; i < count; ++i) {
    const FlatCall& call = flat.calls[i];
    families.push_back(CheckedFamily(lowering, call));
    if (anchor_of[i] >= 0) continue;
    if (!IsAnchor(families[i])) continue;
    epilogues[i] = CollectAnchorEpilogue(lowering, call, i, families[i], fused);
    anchor_of[i] = i;
    for (int absorbed : epilogues[i].calls) {
      anchor_of[absorbed] = i;
      fused[absorbed] = true;
    }
  }

  // A call is lowered where its group ends: at its own index, or at its anchor's last absorbed call.
  std::vector<int> lowered_at(count);
  for (int i = 0; i < count; ++i) {
    const int anchor = anchor_of[i];
    lowered_at[i] = anchor < 0 ? i : (epilogues[anchor].calls.empty() ? anchor : epilogues[anchor].calls.back());
  }
  // A residual sum may overwrite its addend when every other reader of the addend runs before
  // the fused primitive and none of them is a view of it (reshapes, transposes) or the product
  // itself (it would overwrite its own input), and the addend is not a partition output:
  // ResNet's blocks add their input, which the block's first convolution also reads, and each
  // copied it first (12 copies per run, ~4 % of resnet50).
  for (int anchor = 0; anchor < count; ++anchor) {
    Epilogue& epilogue = epilogues[anchor];
    const int addend = epilogue.SumAddend();
    if (anchor_of[anchor] != anchor || addend < 0 || flat.IsOutput(addend)) continue;
    epilogue.sum_in_place = std::all_of(flat.consumers[addend].begin(), flat.consumers[addend].end(), [&](int reader) {
      if (reader == anchor) return false;  // the product reads its own addend while writing it
      if (anchor_of[reader] == anchor) return true;  // the residual add itself
      const bool is_view = families[reader] == OpFamily::kReshape || families[reader] == OpFamily::kTranspose;
      return !is_view && lowered_at[reader] < lowered_at[anchor];
    });
  }

  // A 1x1 convolution and the depthwise convolution reading its result may run as one
  // primitive, lowered where the 1x1 group ends: the depthwise group reads nothing else that
  // is computed, so it can move there.
  std::vector<int> depthwise_after(count, -1);
  for (int anchor = 0; anchor < count; ++anchor) {
    if (anchor_of[anchor] != anchor || families[anchor] != OpFamily::kConvolution) continue;
    const std::vector<int>& readers = flat.consumers[epilogues[anchor].result];
    if (readers.size() != 1 || anchor_of[readers.front()] != readers.front() ||
        families[readers.front()] != OpFamily::kConvolution) {
      continue;
    }
    const int depthwise = readers.front();
    if (CanFuseDepthwiseAfterPointwise(lowering, flat.calls[anchor], epilogues[anchor], flat.calls[depthwise],
                                       epilogues[depthwise])) {
      depthwise_after[anchor] = depthwise;
    }
  }
  std::vector<bool> lowered_early(count, false);
  lowering.SetConcatPlan(PlanConcatsInPlace(flat));

  for (int i = 0; i < count; ++i) {
    const FlatCall& call = flat.calls[i];
    const int anchor = anchor_of[i];
    const size_t first_step = lowering.steps().size();
    if (anchor < 0) {
      LowerUnfused(lowering, call, families[i]);
      RefuseReferenceImplementations(lowering.steps(), first_step, call.op + " on " + OperandShapes(lowering, call));
      continue;
    }
    const Epilogue& epilogue = epilogues[anchor];
    const int last = epilogue.calls.empty() ? anchor : epilogue.calls.back();
    if (i != last || lowered_early[anchor]) continue;
    std::string fused = flat.calls[anchor].op;
    for (int absorbed : epilogue.calls) fused += "+" + flat.calls[absorbed].op;
    const int depthwise = depthwise_after[anchor];
    if (depthwise >= 0 && LowerConvolutionWithDepthwise(lowering, flat.calls[anchor], epilogue,
                                                        flat.calls[depthwise], epilogues[depthwise])) {
      lowered_early[depthwise] = true;
      fused += "+" + flat.calls[depthwise].op;
      for (int absorbed : epilogues[depthwise].calls) fused += "+" + flat.calls[absorbed].op;
    } else if (families[anchor] == OpFamily::kConvolution) {
      LowerConvolution(lowering, flat.calls[anchor], epilogue);
    } else if (families[anchor] == OpFamily::kBinary) {
      if (!LowerBinary(lowering, flat.calls[anchor], epilogue)) {
        fused = flat.calls[anchor].op;
        LowerBinary(lowering, flat.calls[anchor]);
        for (int absorbed : epilogue.calls) LowerUnfused(lowering, flat.calls[absorbed], families[absorbed]);
      }
    } else {
      LowerMatmul(lowering, flat.calls[anchor], epilogue);
    }
    RefuseReferenceImplementations(lowering.steps(), first_step,
                                   fused + " on " + OperandShapes(lowering, flat.calls[anchor]));
  }
  const size_t first_output_step = lowering.steps().size();
  Program program = std::move(lowering).Finish();
  RefuseReferenceImplementations(program.steps, first_output_step, "the partition's outputs");
  return program;
}

}  // namespace collage::onednn
