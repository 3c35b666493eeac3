#include "backend/xnnpack/host_silu.h"

#include <algorithm>

#include "backend/openmp_ranges.h"
#include "backend/xnnpack/host_binary_ops.h"
#include "backend/xnnpack/host_vector_math.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"
#include "ir/type.h"

namespace collage::xnnpack {
namespace {

constexpr int64_t kElementsPerItem = 4096;

struct SiluLoop {
  const HostSilu& silu;
  const float* in;
  float* out;

  __attribute__((target("avx512f"))) static void Run(void* context, int64_t first_item, int64_t end_item) {
    const SiluLoop& loop = *static_cast<const SiluLoop*>(context);
    const int64_t begin = first_item * kElementsPerItem;
    const int64_t end = std::min(loop.silu.elements, end_item * kElementsPerItem);
    int64_t i = begin;
    for (; i + 16 <= end; i += 16) _mm512_storeu_ps(loop.out + i, Silu(_mm512_loadu_ps(loop.in + i)));
    if (i < end) {
      const auto lanes = static_cast<__mmask16>((1u << (end - i)) - 1u);
      _mm512_mask_storeu_ps(loop.out + i, lanes, Silu(_mm512_maskz_loadu_ps(lanes, loop.in + i)));
    }
  }
};

bool IsCall(const Expr& expr, const char* op) {
  const auto* call = As<CallNode>(expr);
  return call && call->op() && call->op()->name == op;
}

}  // namespace

const CallNode* SiluSigmoidOf(const CallNode& multiply) {
  if (!multiply.op() || multiply.op()->name != "multiply" || multiply.args.size() != 2) return nullptr;
  if (!UnsupportedReason(multiply).empty()) return nullptr;
  for (size_t side = 0; side < 2; ++side) {
    const Expr& sigmoid = multiply.args[side];
    const Expr& x = multiply.args[1 - side];
    if (!IsCall(sigmoid, "sigmoid") || IsConstant(x)) continue;
    const auto* call = As<CallNode>(sigmoid);
    if (call->args[0].get() == x.get() && UnsupportedReason(*call).empty()) return call;
  }
  return nullptr;
}

std::optional<HostSilu> HostSiluOf(const CallNode& multiply) {
  if (!SiluSigmoidOf(multiply) || !CpuHasAvx512()) return std::nullopt;
  const int64_t elements = NumElements(AsTensorType(multiply.checked_type())->shape);
  if (elements < kMinHostOpElements) return std::nullopt;
  return HostSilu{elements};
}

void RunHostSilu(const HostSilu& silu, const float* in, float* out, int threads) {
  SiluLoop loop{silu, in, out};
  RunRangesOnOpenMpThreads(threads, (silu.elements + kElementsPerItem - 1) / kElementsPerItem, &SiluLoop::Run, &loop);
}

}  // namespace collage::xnnpack
