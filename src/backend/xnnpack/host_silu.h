// x * sigmoid(x) (SiLU, swish) the executable computes itself between XNNPACK runtimes, on CPUs
// with AVX-512: XNNPACK computes it as a sigmoid and a multiply, which read and write the
// tensor five times; one loop reads it once and writes it once. The sigmoid is absorbed into
// the multiply's step (partition_steps.h); when x is a depthwise convolution's result read by
// nothing else, that convolution applies the SiLU to its sums itself (host_depthwise.h).
// Values of fewer than kMinHostOpElements elements and other CPUs stay in XNNPACK.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/expr.h"

namespace collage::xnnpack {

struct HostSilu {
  int64_t elements = 0;
};

// The sigmoid call of `multiply` when it is x * sigmoid(x) or sigmoid(x) * x of a computed x
// with every op supported; null otherwise.
const CallNode* SiluSigmoidOf(const CallNode& multiply);

// The loop that computes `multiply` (see SiluSigmoidOf), when the executable should.
std::optional<HostSilu> HostSiluOf(const CallNode& multiply);

// out = in * sigmoid(in), within 1e-6 relative, split over `threads` OpenMP threads. `in` may
// be `out`.
void RunHostSilu(const HostSilu& silu, const float* in, float* out, int threads);

}  // namespace collage::xnnpack
