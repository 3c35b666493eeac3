// Element-wise binary ops the executable computes itself between XNNPACK runtimes. XNNPACK (the
// 2022-02 release Debian ships) folds the axes of a same-shape binary op into one and runs it as
// a single task on one thread, and multiplies by a per-channel gate with one micro-kernel call
// per pixel: on the AVX-512 EPYC at 2 threads, efficientnet_b0's 58 same-shape multiplies and
// adds (x * sigmoid(x) and residual sums) took 1.6 ms of its 9-10 ms run so, where a loop split
// over both threads takes half. Small ops stay in XNNPACK: splitting its runtime costs more
// than they save.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/expr.h"

namespace collage::xnnpack {

enum class HostBinaryOp { kAdd, kSubtract, kMultiply };

// Host ops (this file's and host_pooling.h's) over fewer elements than this stay in the XNNPACK
// runtime.
inline constexpr int64_t kMinHostOpElements = 16384;

// What a host binary op computes over channels-last buffers. Same shape (channels == 0):
// out[i] = lhs[i] op rhs[i] for i < elements. Channel gate (channels > 0, multiply only): lhs
// holds `samples` x `pixels` rows of `channels`, rhs one row of channels per sample (one for
// all samples unless gate_per_sample), and out[s, p, c] = lhs[s, p, c] * rhs[s, c].
struct HostBinary {
  HostBinaryOp op = HostBinaryOp::kAdd;
  int64_t elements = 0;
  int64_t channels = 0;
  int64_t pixels = 0;
  bool gate_per_sample = false;
  // The call's first operand is the gate, so the call's operands are (rhs, lhs) above.
  bool gate_first = false;
};

// How the executable computes `call`, when it does: a supported add, subtract or multiply of
// two computed operands of the result's shape, or a multiply of a computed rank-4 value by a
// computed [N or 1, C, 1, 1] gate over more than one pixel, with at least
// kMinHostOpElements elements. nullopt for everything else (constant operands fold into
// XNNPACK's broadcast forms).
std::optional<HostBinary> HostBinaryOf(const CallNode& call);

// Computes `binary` split over `threads` OpenMP threads (backend/openmp_ranges.h). `out` may
// be `lhs`, or `rhs` of a same-shape op.
void RunHostBinary(const HostBinary& binary, const float* lhs, const float* rhs, float* out, int threads);

}  // namespace collage::xnnpack
