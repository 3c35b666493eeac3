#include "backend/xnnpack/host_depthwise.h"

#include <algorithm>

#include "backend/openmp_ranges.h"
#include "backend/xnnpack/host_binary_ops.h"
#include "backend/xnnpack/host_vector_math.h"
#include "backend/xnnpack/support_rules.h"
#include "ir/op_registry.h"
#include "ir/type.h"

namespace collage::xnnpack {
namespace {

constexpr int64_t kLanes = 16;  // channels in one AVX-512 vector
// Channels of one item: all of a layer's up to here, else enough items for every thread on
// the 7x7 layers.
constexpr int64_t kChannelsPerGroup = 8 * kLanes;
constexpr int kMaxKernel = 5;

// Where one block of up to kLanes channels of one output row is read and written.
struct RowSpan {
  const float* rows[kMaxKernel];  // input row ky's first pixel at the block's first channel,
                                  // for ky in [ky_begin, ky_end), the kernel rows inside the input
  float* out;                     // the row's first output pixel, at the block's first channel
  const float* weights;           // tap 0 at the block's first channel
  const float* bias;
  __mmask16 lanes;
  int ky_begin, ky_end;
};

// What every sum of a row starts from and is clamped to.
struct RowEnds {
  __m512 bias, output_min, output_max;
  bool silu;
};

// x * sigmoid(x) if asked, of `value` within the bounds; a NaN stays NaN.
__attribute__((target("avx512f"), always_inline)) inline __m512 Activate(__m512 value, __m512 low, __m512 high,
                                                                         bool silu) {
  constexpr __mmask16 kAll = 0xFFFF;
  const __m512 clamped = _mm512_maskz_min_ps(kAll, high, _mm512_maskz_max_ps(kAll, low, value));
  return silu ? Silu(clamped) : clamped;
}

// Stores `sum` within the output bounds, then its SiLU if asked.
__attribute__((target("avx512f"), always_inline)) inline void StoreClamped(const RowSpan& span, const RowEnds& ends,
                                                                           float* out, __m512 sum) {
  _mm512_mask_storeu_ps(out, span.lanes, Activate(sum, ends.output_min, ends.output_max, ends.silu));
}

// The sum of `Pixels` consecutive output pixels, from output column `ox`, whose windows lie
// inside the input along x. Each kernel row's input vectors are loaded once for all pixels.
template <int K, int S, int Pixels>
__attribute__((target("avx512f"), always_inline)) inline void SumInteriorPixels(const HostDepthwise& dw,
                                                                                const RowSpan& span,
                                                                                const RowEnds& ends, int64_t ox) {
  const int64_t channels = dw.channels;
  __m512 sums[Pixels];
  for (int p = 0; p < Pixels; ++p) sums[p] = ends.bias;
  for (int ky = span.ky_begin; ky < span.ky_end; ++ky) {
    const float* row = span.rows[ky] + (ox * S - dw.pad_left) * channels;
    constexpr int kLoads = (Pixels - 1) * S + K;
    __m512 inputs[kLoads];
    for (int i = 0; i < kLoads; ++i) inputs[i] = _mm512_maskz_loadu_ps(span.lanes, row + i * channels);
    for (int kx = 0; kx < K; ++kx) {
      const __m512 weight = _mm512_maskz_loadu_ps(span.lanes, span.weights + (ky * K + kx) * channels);
      for (int p = 0; p < Pixels; ++p) sums[p] = _mm512_fmadd_ps(inputs[p * S + kx], weight, sums[p]);
    }
  }
  for (int p = 0; p < Pixels; ++p) StoreClamped(span, ends, span.out + (ox + p) * channels, sums[p]);
}

// One output pixel whose window may reach past the input's left or right edge.
template <int K, int S>
__attribute__((target("avx512f"), always_inline)) inline void SumEdgePixel(const HostDepthwise& dw, const RowSpan& span,
                                                                           const RowEnds& ends, int64_t ox) {
  const int64_t channels = dw.channels;
  const int64_t first_column = ox * S - dw.pad_left;
  const int kx_begin = static_cast<int>(std::max<int64_t>(0, -first_column));
  const int kx_end = static_cast<int>(std::min<int64_t>(K, dw.in_width - first_column));
  __m512 sum = ends.bias;
  for (int ky = span.ky_begin; ky < span.ky_end; ++ky) {
    const float* row = span.rows[ky];
    for (int kx = kx_begin; kx < kx_end; ++kx) {
      const __m512 input = _mm512_maskz_loadu_ps(span.lanes, row + (first_column + kx) * channels);
      const __m512 weight = _mm512_maskz_loadu_ps(span.lanes, span.weights + (ky * K + kx) * channels);
      sum = _mm512_fmadd_ps(input, weight, sum);
    }
  }
  StoreClamped(span, ends, span.out + ox * channels, sum);
}

// The span of block `block` of a group whose first block's span is `first`; the group's
// channels end at `end_channel` (a channel offset from first's).
RowSpan BlockOf(const RowSpan& first, int64_t block, int64_t end_channel) {
  const int64_t offset = block * kLanes;
  RowSpan span = first;
  for (int ky = span.ky_begin; ky < span.ky_end; ++ky) span.rows[ky] += offset;
  span.out += offset;
  span.weights += offset;
  span.bias += offset;
  span.lanes = static_cast<__mmask16>((1u << std::min(kLanes, end_channel - offset)) - 1u);
  return span;
}

// Runs of `Pixels` interior pixels of a row from `ox` on, for every block of the group; returns
// the first pixel after them.
template <int K, int S, int Pixels, typename EndsOf>
__attribute__((target("avx512f"), always_inline)) inline int64_t SumInteriorRuns(
    const HostDepthwise& dw, const RowSpan& first, int64_t channels, const EndsOf& ends_of, int64_t ox,
    int64_t interior_end) {
  const int64_t blocks = (channels + kLanes - 1) / kLanes;
  for (; ox + Pixels <= interior_end; ox += Pixels) {
    for (int64_t block = 0; block < blocks; ++block) {
      const RowSpan span = BlockOf(first, block, channels);
      SumInteriorPixels<K, S, Pixels>(dw, span, ends_of(span), ox);
    }
  }
  return ox;
}

// One output row of a group of channel blocks. The pixels go outermost and the blocks
// innermost, so that the row reads its input rows front to back, as the hardware prefetchers
// expect (block by block, a channels-last input is read in strided pieces, which cost the
// large layers twice their time when the input was not in the cache).
template <int K, int S>
__attribute__((target("avx512f"))) void SumRow(const HostDepthwise& dw, const RowSpan& first, int64_t channels) {
  const int64_t blocks = (channels + kLanes - 1) / kLanes;
  const __m512 output_min = _mm512_set1_ps(dw.output_min), output_max = _mm512_set1_ps(dw.output_max);
  const auto ends_of = [&](const RowSpan& span) __attribute__((target("avx512f"), always_inline)) {
    return RowEnds{_mm512_maskz_loadu_ps(span.lanes, span.bias), output_min, output_max, dw.silu};
  };
  // Output columns whose windows lie inside the input along x: [interior_begin, interior_end).
  const int64_t interior_begin = std::min(dw.out_width, (dw.pad_left + S - 1) / S);
  const int64_t last_inside = dw.in_width - K + dw.pad_left;  // the last window start, times S
  const int64_t interior_end =
      std::clamp<int64_t>(last_inside < 0 ? 0 : last_inside / S + 1, interior_begin, dw.out_width);
  const auto edge_pixel = [&](int64_t ox) __attribute__((target("avx512f"), always_inline)) {
    for (int64_t block = 0; block < blocks; ++block) {
      const RowSpan span = BlockOf(first, block, channels);
      SumEdgePixel<K, S>(dw, span, ends_of(span), ox);
    }
  };
  int64_t ox = 0;
  for (; ox < interior_begin; ++ox) edge_pixel(ox);
  // Runs of eight pixels, then of four and two: a single pixel is one chain of dependent
  // multiply-adds, and the rest of a 56-pixel row in runs of eight left three of them.
  ox = SumInteriorRuns<K, S, 8>(dw, first, channels, ends_of, ox, interior_end);
  ox = SumInteriorRuns<K, S, 4>(dw, first, channels, ends_of, ox, interior_end);
  ox = SumInteriorRuns<K, S, 2>(dw, first, channels, ends_of, ox, interior_end);
  for (; ox < dw.out_width; ++ox) edge_pixel(ox);
}

// The span of output row `oy` of sample `sample` over the channels from `first_channel`;
// rows[ky] from input_row(y), input row y's first pixel at channel 0.
template <typename InputRow>
RowSpan GroupSpan(const HostDepthwise& dw, float* out, int64_t sample, int64_t oy, int64_t first_channel,
                  const InputRow& input_row) {
  const int64_t first_input_row = oy * dw.stride - dw.pad_top;
  RowSpan span;
  span.ky_begin = static_cast<int>(std::max<int64_t>(0, -first_input_row));
  span.ky_end = static_cast<int>(std::min<int64_t>(dw.kernel, dw.in_height - first_input_row));
  for (int ky = span.ky_begin; ky < span.ky_end; ++ky) span.rows[ky] = input_row(first_input_row + ky) + first_channel;
  span.out = out + ((sample * dw.out_height + oy) * dw.out_width) * dw.channels + first_channel;
  span.weights = dw.weights.data() + first_channel;
  span.bias = dw.bias.data() + first_channel;
  return span;
}

using RowFunction = void (*)(const HostDepthwise&, const RowSpan&, int64_t);

RowFunction RowFunctionFor(int kernel, int stride) {
  if (kernel == 3) return stride == 1 ? &SumRow<3, 1> : &SumRow<3, 2>;
  return stride == 1 ? &SumRow<5, 1> : &SumRow<5, 2>;
}

struct DepthwiseLoop {
  const HostDepthwise& dw;
  const float* in;
  float* out;
  RowFunction row_function;
  int64_t groups;  // of up to kChannelsPerGroup channels

  // Items are (sample, output row, group of channels), the group fastest: consecutive items
  // read the same input rows.
  static void Run(void* context, int64_t first_item, int64_t end_item) {
    const DepthwiseLoop& loop = *static_cast<const DepthwiseLoop*>(context);
    const HostDepthwise& dw = loop.dw;
    for (int64_t item = first_item; item < end_item; ++item) {
      const int64_t group = item % loop.groups;
      const int64_t row = item / loop.groups;  // sample * out_height + output row
      const int64_t sample = row / dw.out_height;
      const int64_t first_channel = group * kChannelsPerGroup;
      const float* image = loop.in + sample * dw.in_height * dw.in_width * dw.channels;
      const RowSpan first = GroupSpan(dw, loop.out, sample, row % dw.out_height, first_channel,
                                      [&](int64_t y) { return image + y * dw.in_width * dw.channels; });
      loop.row_function(dw, first, std::min(kChannelsPerGroup, dw.channels - first_channel));
    }
  }
};

// `Pixels` pixels of one expanded row from pixel x, channels [c, c + 16) under `lanes`:
// activation(bias + in[pixel, :] . weights[:, c]).
template <int Pixels>
__attribute__((target("avx512f"), always_inline)) inline void ExpandPixels(const HostExpandedDepthwise& e,
                                                                           const float* in_row, float* out_row,
                                                                           int64_t x, int64_t c, __mmask16 lanes,
                                                                           __m512 low, __m512 high) {
  const int64_t in_channels = e.in_channels, channels = e.depthwise.channels;
  __m512 sums[Pixels];
  const __m512 bias = _mm512_maskz_loadu_ps(lanes, e.expand_bias.data() + c);
#pragma GCC unroll 8
  for (int p = 0; p < Pixels; ++p) sums[p] = bias;
  const float* pixels = in_row + x * in_channels;
  const float* weights = e.expand_weights.data() + c;
  for (int64_t k = 0; k < in_channels; ++k) {
    const __m512 weight = _mm512_maskz_loadu_ps(lanes, weights + k * channels);
#pragma GCC unroll 8
    for (int p = 0; p < Pixels; ++p) {
      sums[p] = _mm512_fmadd_ps(_mm512_set1_ps(pixels[p * in_channels + k]), weight, sums[p]);
    }
  }
#pragma GCC unroll 8
  for (int p = 0; p < Pixels; ++p) {
    _mm512_mask_storeu_ps(out_row + (x + p) * channels + c, lanes, Activate(sums[p], low, high, e.expand_silu));
  }
}

// One expanded row, [in_width, channels], from one input row, [in_width, in_channels].
__attribute__((target("avx512f"))) void ExpandRow(const HostExpandedDepthwise& e, const float* in_row, float* out_row) {
  const int64_t width = e.depthwise.in_width, channels = e.depthwise.channels;
  const __m512 low = _mm512_set1_ps(e.expand_min), high = _mm512_set1_ps(e.expand_max);
  for (int64_t c = 0; c < channels; c += kLanes) {
    const auto lanes = static_cast<__mmask16>((1u << std::min(kLanes, channels - c)) - 1u);
    int64_t x = 0;
    for (; x + 8 <= width; x += 8) ExpandPixels<8>(e, in_row, out_row, x, c, lanes, low, high);
    for (; x < width; ++x) ExpandPixels<1>(e, in_row, out_row, x, c, lanes, low, high);
  }
}

struct ExpandedDepthwiseLoop {
  const HostExpandedDepthwise& e;
  const float* in;
  float* out;
  RowFunction row_function;
  int64_t bands;  // of output rows per sample

  static void Run(void* context, int64_t first_item, int64_t end_item) {
    const ExpandedDepthwiseLoop& loop = *static_cast<const ExpandedDepthwiseLoop*>(context);
    const HostDepthwise& dw = loop.e.depthwise;
    const int64_t row_elements = dw.in_width * dw.channels;
    // The expanded rows of the band's current output row: row y in slot y % kernel.
    thread_local std::vector<float> ring;
    ring.resize(static_cast<size_t>(dw.kernel * row_elements));
    for (int64_t item = first_item; item < end_item; ++item) {
      const int64_t sample = item / loop.bands, band = item % loop.bands;
      const int64_t first_row = band * dw.out_height / loop.bands;
      const int64_t end_row = (band + 1) * dw.out_height / loop.bands;
      const float* image = loop.in + sample * dw.in_height * dw.in_width * loop.e.in_channels;
      int64_t next_expanded = std::max<int64_t>(0, first_row * dw.stride - dw.pad_top);
      for (int64_t oy = first_row; oy < end_row; ++oy) {
        const int64_t end_input_row = std::min(oy * dw.stride - dw.pad_top + dw.kernel, dw.in_height);
        for (; next_expanded < end_input_row; ++next_expanded) {
          ExpandRow(loop.e, image + next_expanded * dw.in_width * loop.e.in_channels,
                    ring.data() + (next_expanded % dw.kernel) * row_elements);
        }
        for (int64_t first_channel = 0; first_channel < dw.channels; first_channel += kChannelsPerGroup) {
          const RowSpan first = GroupSpan(dw, loop.out, sample, oy, first_channel, [&](int64_t y) {
            return ring.data() + (y % dw.kernel) * row_elements;
          });
          loop.row_function(dw, first, std::min(kChannelsPerGroup, dw.channels - first_channel));
        }
      }
    }
  }
};

}  // namespace

std::optional<HostDepthwise> HostDepthwiseOf(const CallNode& conv, const Tensor* bias) {
  if (!conv.op() || conv.op()->name != "nn.conv2d" || conv.args.size() != 2) return std::nullopt;
  if (!UnsupportedReason(conv).empty() || IsConstant(conv.args[0]) || !CpuHasAvx512()) return std::nullopt;
  const auto* weight = As<ConstantNode>(conv.args[1]);
  if (!weight) return std::nullopt;
  const Shape& in = TensorTypeOf(conv.args[0]).shape;
  const Shape& out = AsTensorType(conv.checked_type())->shape;
  const Shape& kernel = weight->data.shape();  // O, I / groups, KH, KW
  const std::vector<int64_t>& strides = conv.attrs.GetInts("strides");
  const std::vector<int64_t>& dilation = conv.attrs.GetInts("dilation");
  const std::vector<int64_t>& pad = conv.attrs.GetInts("padding");  // top, left, bottom, right
  if (in.size() != 4 || NumElements(in) < kMinHostOpElements) return std::nullopt;
  if (conv.attrs.GetInt("groups") != in[1] || kernel[0] != in[1] || kernel[1] != 1) return std::nullopt;
  if (kernel[2] != kernel[3] || (kernel[2] != 3 && kernel[2] != 5)) return std::nullopt;
  if (strides[0] != strides[1] || (strides[0] != 1 && strides[0] != 2)) return std::nullopt;
  if (dilation[0] != 1 || dilation[1] != 1) return std::nullopt;

  HostDepthwise dw;
  dw.samples = in[0];
  dw.channels = in[1];
  dw.in_height = in[2];
  dw.in_width = in[3];
  dw.out_height = out[2];
  dw.out_width = out[3];
  dw.kernel = static_cast<int>(kernel[2]);
  dw.stride = static_cast<int>(strides[0]);
  dw.pad_top = pad[0];
  dw.pad_left = pad[1];
  const int64_t taps = kernel[2] * kernel[3];
  const float* oihw = weight->data.data<float>();
  dw.weights.resize(static_cast<size_t>(taps * dw.channels));
  for (int64_t c = 0; c < dw.channels; ++c) {
    for (int64_t tap = 0; tap < taps; ++tap) dw.weights[tap * dw.channels + c] = oihw[c * taps + tap];
  }
  dw.bias.assign(static_cast<size_t>(dw.channels), 0.0f);
  if (bias) std::copy_n(bias->data<float>(), dw.channels, dw.bias.begin());
  return dw;
}

void RunHostDepthwise(const HostDepthwise& depthwise, const float* in, float* out, int threads) {
  const int64_t groups = (depthwise.channels + kChannelsPerGroup - 1) / kChannelsPerGroup;
  DepthwiseLoop loop{depthwise, in, out, RowFunctionFor(depthwise.kernel, depthwise.stride), groups};
  RunRangesOnOpenMpThreads(threads, depthwise.samples * depthwise.out_height * groups, &DepthwiseLoop::Run, &loop);
}

void RunHostExpandedDepthwise(const HostExpandedDepthwise& expanded, const float* in, float* out, int threads) {
  const HostDepthwise& dw = expanded.depthwise;
  const int64_t bands = std::max<int64_t>(1, std::min<int64_t>(threads, dw.out_height));
  ExpandedDepthwiseLoop loop{expanded, in, out, RowFunctionFor(dw.kernel, dw.stride), bands};
  RunRangesOnOpenMpThreads(threads, dw.samples * bands, &ExpandedDepthwiseLoop::Run, &loop);
}

}  // namespace collage::xnnpack
