#include "backend/xnnpack/host_pooling.h"

#include <algorithm>

#include "backend/openmp_ranges.h"
#include "backend/xnnpack/host_binary_ops.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"
#include "ir/type.h"

namespace collage::xnnpack {
namespace {

// Channels summed together by one item: at most a few vectors, and enough items for every
// thread even when the channels are few (efficientnet's first pooling has 32 over 112x112).
constexpr int64_t kMaxChannelsPerItem = 64;

int64_t ChannelsPerItem(int64_t channels, int threads) {
  const int64_t share = (channels + threads - 1) / std::max(threads, 1);
  return std::min(kMaxChannelsPerItem, std::max<int64_t>(16, (share + 15) / 16 * 16));
}

struct PoolLoop {
  const HostGlobalAveragePool& pool;
  const float* in;
  float* out;
  int64_t channels_per_item;
  int64_t blocks_per_sample;

  static void Run(void* context, int64_t first_item, int64_t end_item) {
    const PoolLoop& loop = *static_cast<const PoolLoop*>(context);
    const HostGlobalAveragePool& pool = loop.pool;
    const float scale = 1.0f / static_cast<float>(pool.pixels);
    for (int64_t item = first_item; item < end_item; ++item) {
      const int64_t sample = item / loop.blocks_per_sample;
      const int64_t first_channel = (item % loop.blocks_per_sample) * loop.channels_per_item;
      const int64_t width = std::min(loop.channels_per_item, pool.channels - first_channel);
      float sums[kMaxChannelsPerItem] = {};
      const float* pixel = loop.in + sample * pool.pixels * pool.channels + first_channel;
      for (int64_t p = 0; p < pool.pixels; ++p, pixel += pool.channels) {
#pragma GCC ivdep
        for (int64_t c = 0; c < width; ++c) sums[c] += pixel[c];
      }
      float* target = loop.out + sample * pool.channels + first_channel;
      for (int64_t c = 0; c < width; ++c) target[c] = sums[c] * scale;
    }
  }
};

}  // namespace

std::optional<HostGlobalAveragePool> HostGlobalAveragePoolOf(const CallNode& call) {
  if (!call.op() || call.op()->name != "nn.global_avg_pool2d" || call.args.size() != 1) return std::nullopt;
  if (!UnsupportedReason(call).empty() || IsConstant(call.args[0])) return std::nullopt;
  const Shape& in = TensorTypeOf(call.args[0]).shape;
  if (in.size() != 4 || NumElements(in) < kMinHostOpElements) return std::nullopt;
  return HostGlobalAveragePool{in[0], in[2] * in[3], in[1]};
}

void RunHostGlobalAveragePool(const HostGlobalAveragePool& pool, const float* in, float* out, int threads) {
  const int64_t channels_per_item = ChannelsPerItem(pool.channels, threads);
  const int64_t blocks_per_sample = (pool.channels + channels_per_item - 1) / channels_per_item;
  PoolLoop loop{pool, in, out, channels_per_item, blocks_per_sample};
  RunRangesOnOpenMpThreads(threads, pool.samples * blocks_per_sample, &PoolLoop::Run, &loop);
}

}  // namespace collage::xnnpack
