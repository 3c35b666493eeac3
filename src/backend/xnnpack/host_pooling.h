// Global average pooling the executable computes itself between XNNPACK runtimes: XNNPACK (the
// 2022-02 release) parallelizes it over samples only, so a batch of one runs on one thread,
// with the other idle (efficientnet_b0's 17 poolings, one per squeeze-and-excitation block and
// one before the classifier). Pooling of fewer than kMinHostOpElements input elements
// stays in XNNPACK.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/expr.h"

namespace collage::xnnpack {

// out[s, c] = the mean over p of in[s, p, c], on channels-last buffers.
struct HostGlobalAveragePool {
  int64_t samples = 0;
  int64_t pixels = 0;
  int64_t channels = 0;
};

// The pooling the executable computes `call` with: a supported nn.global_avg_pool2d of a
// computed rank-4 value of at least kMinHostOpElements elements; nullopt otherwise.
std::optional<HostGlobalAveragePool> HostGlobalAveragePoolOf(const CallNode& call);

// Computes `pool`, split over `threads` OpenMP threads by (sample, block of channels).
void RunHostGlobalAveragePool(const HostGlobalAveragePool& pool, const float* in, float* out, int threads);

}  // namespace collage::xnnpack
