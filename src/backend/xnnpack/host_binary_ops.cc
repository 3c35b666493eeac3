#include "backend/xnnpack/host_binary_ops.h"

#include <algorithm>

#include "backend/openmp_ranges.h"
#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"
#include "ir/type.h"

namespace collage::xnnpack {
namespace {

// Elements per range item of a same-shape op: a few pages.
constexpr int64_t kElementsPerItem = 4096;

struct BinaryLoop {
  const HostBinary& binary;
  const float* lhs;
  const float* rhs;
  float* out;

  template <typename Combine>
  static void Apply(const float* lhs, const float* rhs, float* out, int64_t count, Combine combine) {
#pragma GCC ivdep
    for (int64_t i = 0; i < count; ++i) out[i] = combine(lhs[i], rhs[i]);
  }

  void Apply(const float* lhs_part, const float* rhs_part, float* out_part, int64_t count) const {
    switch (binary.op) {
      case HostBinaryOp::kAdd:
        Apply(lhs_part, rhs_part, out_part, count, [](float a, float b) { return a + b; });
        break;
      case HostBinaryOp::kSubtract:
        Apply(lhs_part, rhs_part, out_part, count, [](float a, float b) { return a - b; });
        break;
      case HostBinaryOp::kMultiply:
        Apply(lhs_part, rhs_part, out_part, count, [](float a, float b) { return a * b; });
        break;
    }
  }

  // Items are runs of kElementsPerItem elements.
  static void RunSameShape(void* context, int64_t first_item, int64_t end_item) {
    const BinaryLoop& loop = *static_cast<const BinaryLoop*>(context);
    const int64_t begin = first_item * kElementsPerItem;
    const int64_t end = std::min(loop.binary.elements, end_item * kElementsPerItem);
    loop.Apply(loop.lhs + begin, loop.rhs + begin, loop.out + begin, end - begin);
  }

  // Items are rows of channels, `pixels` per sample.
  static void RunChannelGate(void* context, int64_t first_row, int64_t end_row) {
    const BinaryLoop& loop = *static_cast<const BinaryLoop*>(context);
    const int64_t channels = loop.binary.channels;
    for (int64_t row = first_row; row < end_row; ++row) {
      const int64_t sample = loop.binary.gate_per_sample ? row / loop.binary.pixels : 0;
      loop.Apply(loop.lhs + row * channels, loop.rhs + sample * channels, loop.out + row * channels, channels);
    }
  }
};

std::optional<HostBinaryOp> BinaryOpNamed(const std::string& name) {
  if (name == "add") return HostBinaryOp::kAdd;
  if (name == "subtract") return HostBinaryOp::kSubtract;
  if (name == "multiply") return HostBinaryOp::kMultiply;
  return std::nullopt;
}

}  // namespace

std::optional<HostBinary> HostBinaryOf(const CallNode& call) {
  if (!call.op() || call.args.size() != 2 || !UnsupportedReason(call).empty()) return std::nullopt;
  const std::optional<HostBinaryOp> op = BinaryOpNamed(call.op()->name);
  const Shape& shape = AsTensorType(call.checked_type())->shape;
  if (!op || NumElements(shape) < kMinHostOpElements) return std::nullopt;
  if (IsConstant(call.args[0]) || IsConstant(call.args[1])) return std::nullopt;
  HostBinary binary;
  binary.op = *op;
  binary.elements = NumElements(shape);
  const Shape& first = TensorTypeOf(call.args[0]).shape;
  const Shape& second = TensorTypeOf(call.args[1]).shape;
  if (first == shape && second == shape) return binary;
  // A gate: [N or 1, C, 1, 1] against [N, C, H, W] with more than one pixel.
  if (*op != HostBinaryOp::kMultiply || shape.size() != 4 || shape[2] * shape[3] == 1) return std::nullopt;
  binary.gate_first = second == shape;
  const Shape gate = PrependOnes(binary.gate_first ? first : second, 4);
  if ((binary.gate_first ? second : first) != shape || gate[1] != shape[1] || gate[2] != 1 || gate[3] != 1 ||
      (gate[0] != 1 && gate[0] != shape[0])) {
    return std::nullopt;
  }
  binary.channels = shape[1];
  binary.pixels = shape[2] * shape[3];
  binary.gate_per_sample = gate[0] == shape[0] && shape[0] > 1;
  return binary;
}

void RunHostBinary(const HostBinary& binary, const float* lhs, const float* rhs, float* out, int threads) {
  BinaryLoop loop{binary, lhs, rhs, out};
  if (binary.channels == 0) {
    RunRangesOnOpenMpThreads(threads, (binary.elements + kElementsPerItem - 1) / kElementsPerItem,
                             &BinaryLoop::RunSameShape, &loop);
  } else {
    RunRangesOnOpenMpThreads(threads, binary.elements / binary.channels, &BinaryLoop::RunChannelGate, &loop);
  }
}

}  // namespace collage::xnnpack
