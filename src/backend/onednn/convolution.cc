// nn.conv2d as one oneDNN convolution (Winograd's for large enough 3x3 ones, where oneDNN has
// it) and nn.conv2d_transpose as one oneDNN deconvolution: activations and weights in the
// layouts they prefer (format_tag::any; constant weights are reordered once at compile time),
// groups as a 5-D weight view, the bias and the post-ops of the epilogue fused.
#include <optional>
#include <vector>

#include "op/nn_common.h"
#include "backend/onednn/concat_in_place.h"
#include "backend/onednn/kernel_probe.h"
#include "backend/onednn/primitive_builders.h"
#include "backend/onednn/quantized_operands.h"

namespace collage::onednn {
namespace {

// The weight tensor as oneDNN's (O, I, KH, KW) or, with groups, (G, O/G, I/G, KH, KW) view.
// conv2d weights are (O, I/G, KH, KW) row-major, so the view is plain; conv2d_transpose
// weights are (I, O/G, KH, KW), so the view swaps the strides of the two channel axes.
memory::desc WeightView(const Shape& weight_shape, int64_t groups, bool transposed) {
  const memory::dim kernel_height = weight_shape[2];
  const memory::dim kernel_width = weight_shape[3];
  const memory::dim taps = kernel_height * kernel_width;
  if (!transposed) {
    if (groups == 1) return PlainDesc(weight_shape);
    return PlainDesc({groups, weight_shape[0] / groups, weight_shape[1], kernel_height, kernel_width});
  }
  const memory::dim group_outputs = weight_shape[1];
  const memory::dim group_inputs = weight_shape[0] / groups;
  const memory::dims tap_strides = {kernel_width, 1};
  if (groups == 1) {
    return memory::desc({group_outputs, group_inputs, kernel_height, kernel_width}, memory::data_type::f32,
                        memory::dims{taps, group_outputs * taps, kernel_width, 1});
  }
  return memory::desc({groups, group_outputs, group_inputs, kernel_height, kernel_width}, memory::data_type::f32,
                      memory::dims{group_inputs * group_outputs * taps, taps, group_outputs * taps, kernel_width, 1});
}

// Fewest multiply-adds of a 3x3 convolution worth its Winograd form: a 128 -> 32 channel one
// on 7x7 (1.8 million) ran 0.024 ms in oneDNN's Winograd kernel against 0.019 ms direct, one of
// 7.2 million (16 -> 16 channels on 56x56, or 128 -> 32 on 14x14) 1.2-1.45x faster.
constexpr double kLeastWinogradMultiplyAdds = 4e6;

// Whether oneDNN's Winograd convolution is worth trying for this nn.conv2d: 3x3, stride 1, no
// dilation, no groups, constant weights (transformed once, at compile time) and enough work.
// Winograd's transforms trade the 9 multiplications of each output for 2.25-4x fewer; on
// AVX-512 oneDNN's kernels ran resnet50's, densenet121's, inception_v3's and squeezenet1_1's
// 3x3 convolutions 1.2-3x faster than its direct ones at 2 threads, within ~2e-6 of the
// output's magnitude of the exact result (direct: ~1e-6).
bool WinogradIsWorthTrying(const Lowering& lowering, const FlatCall& call) {
  const Window2D window = GetWindow2D(call.call->attrs);
  const Shape& weights = lowering.value(call.inputs[1]).shape;
  const Shape& output = lowering.value(call.output).shape;
  if (call.call->attrs.GetInt("groups") != 1 || weights.size() != 4 || weights[2] != 3 || weights[3] != 3) return false;
  if (window.strides[0] != 1 || window.strides[1] != 1 || window.dilation[0] != 1 || window.dilation[1] != 1) {
    return false;
  }
  if (!lowering.partition().IsConstant(call.inputs[1])) return false;
  const double multiply_adds = static_cast<double>(NumElements(output)) * static_cast<double>(weights[1]) * 9.0;
  return multiply_adds >= kLeastWinogradMultiplyAdds;
}

// Whether an implementation is one of oneDNN's optimized kernels, not its reference or
// im2col-gemm fallback (plain-layout convolutions ran ~10x slower in it).
bool IsOptimized(const std::string& implementation) {
  return implementation.rfind("ref", 0) != 0 && implementation.find("gemm") == std::string::npos;
}

// The convolution or deconvolution primitive for source layout `src` (format_tag::any lets
// oneDNN choose).
template <typename Kind>
typename Kind::primitive_desc Describe(const memory::desc& src, const memory::desc& weights,
                                       const memory::desc& bias, const memory::desc& dst, dnnl::algorithm algorithm,
                                       const memory::dims& strides, const memory::dims& dilation,
                                       const memory::dims& pad_begin, const memory::dims& pad_end,
                                       const dnnl::primitive_attr& attr, const dnnl::engine& engine) {
  const typename Kind::desc desc(dnnl::prop_kind::forward_inference, algorithm, src, weights, bias, dst, strides,
                                 dilation, pad_begin, pad_end);
  return typename Kind::primitive_desc(desc, attr, engine);
}

// Builds the primitive of kind `Kind` and adds its step. A source computed in this partition
// in channels-last (the layout of oneDNN's brgconv kernels on AVX-512) or in channel blocks stays
// in that layout, as does the result, when an optimized kernel takes them: reordering there and
// back costs more than most kernels' differences between layouts (ResNeXt's grouped
// convolutions, blocked by 4 or 8 channels, between channels-last 1x1 convolutions took two
// reorders per block; DenseNet's layers read their block's concatenation buffer, which is
// channel-blocked). A result that is a member of a concatenation group is computed straight
// into its slice of the group's buffer when a kernel writes that layout.
// `algorithms` in order of preference: the first oneDNN implements with these post-ops is used.
template <typename Kind>
void AddConvolutionStep(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue,
                        const std::vector<dnnl::algorithm>& algorithms, const memory::desc& weight_view,
                        const memory::dims& pad_end) {
  const Window2D window = GetWindow2D(call.call->attrs);
  const Shape& data_shape = lowering.value(call.inputs[0]).shape;
  const Shape& output_shape = lowering.value(call.output).shape;
  const int64_t out_channels = output_shape[1];
  const auto any = memory::format_tag::any;
  const auto f32 = memory::data_type::f32;
  const memory::desc src_any(ToDims(data_shape), f32, any);
  const memory::desc weights_any(weight_view.dims(), f32, any);
  const memory::desc bias_any = epilogue.bias >= 0 ? memory::desc({out_channels}, f32, any) : memory::desc();
  const memory::desc dst_any(ToDims(output_shape), f32, any);
  const memory::dims strides = {window.strides[0], window.strides[1]};
  const memory::dims dilation = {window.dilation[0] - 1, window.dilation[1] - 1};  // oneDNN counts the gaps
  const memory::dims pad_begin = {window.pad_begin[0], window.pad_begin[1]};
  const dnnl::primitive_attr attr = MakeAttr(epilogue);
  dnnl::algorithm algorithm = algorithms.front();
  const auto describe = [&](const memory::desc& src, const memory::desc& dst) {
    return Describe<Kind>(src, weights_any, bias_any, dst, algorithm, strides, dilation, pad_begin, pad_end, attr,
                          lowering.engine());
  };
  std::optional<typename Kind::primitive_desc> described;
  for (const dnnl::algorithm candidate : algorithms) {
    algorithm = candidate;
    try {
      described = describe(src_any, dst_any);
      break;
    } catch (const dnnl::error&) {
      if (candidate == algorithms.back()) throw;  // no kernel of any of them
    }
  }
  const int data = call.inputs[0];
  typename Kind::primitive_desc primitive = *described;
  // Other layouts worth a kernel that takes them, tried in order: the input's current one when
  // it was computed in this partition in channels-last or channel blocks, and the result's
  // slice of its concatenation buffer (see the builder's comment).
  const memory::desc home = lowering.Home(data).get_desc();
  const memory::desc channels_last(ToDims(data_shape), f32, memory::format_tag::acdb);
  const bool computed_here = lowering.value(data).source == FlatValue::Source::kCall;
  const bool keep_home = computed_here && home != primitive.src_desc() &&
                         (home == channels_last || ContiguousChannelBlock(home) > 1);
  const std::optional<memory::desc> slice =
      epilogue.SumAddend() < 0 ? lowering.ConcatSliceLayout(epilogue.result, primitive.dst_desc()) : std::nullopt;
  const bool into_slice = slice && *slice != primitive.dst_desc();
  if (keep_home || into_slice) {
    const memory::desc dst = into_slice       ? *slice
                             : home == channels_last ? memory::desc(ToDims(output_shape), f32, memory::format_tag::acdb)
                                                     : dst_any;
    for (const memory::desc& src : {keep_home ? home : src_any, src_any}) {
      try {
        typename Kind::primitive_desc candidate = describe(src, dst);
        if (IsOptimized(candidate.impl_info_str())) {
          primitive = candidate;
          break;
        }
      } catch (const dnnl::error&) {
        // No kernel takes these layouts: try the next, or keep oneDNN's choice.
      }
    }
  }
  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.Get(data, primitive.src_desc());
  args[DNNL_ARG_WEIGHTS] = lowering.GetViewed(call.inputs[1], weight_view, primitive.weights_desc());
  if (epilogue.bias >= 0) {
    args[DNNL_ARG_BIAS] = lowering.GetViewed(epilogue.bias, PlainDesc({out_channels}), primitive.bias_desc());
  }
  args[DNNL_ARG_DST] = PrepareDestination(lowering, epilogue, primitive.dst_desc());
  lowering.AddStep(Kind(primitive), std::move(args));
}

// An int8 convolution: the activation quantized by its calibrated scale, the constant weights by
// one symmetric s8 scale per output channel, s32 accumulation, and the result dequantized to f32
// by the output scales (activation scale x weight scale) before the epilogue's post-ops.
void AddQuantizedConvolutionStep(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue,
                                 const QuantizationParameters& activation, const memory::dims& pad_end) {
  const Window2D window = GetWindow2D(call.call->attrs);
  const Shape& data_shape = lowering.value(call.inputs[0]).shape;
  const Shape& output_shape = lowering.value(call.output).shape;
  const Tensor& weights = lowering.value(call.inputs[1]).constant;
  const QuantizedWeights quantized = QuantizeConstantWeights(weights, activation);
  const auto any = memory::format_tag::any;
  const auto integer = activation.dtype == DType::kU8 ? memory::data_type::u8 : memory::data_type::s8;
  const memory::desc src_any(ToDims(data_shape), integer, any);
  const memory::desc weights_any(ToDims(weights.shape()), memory::data_type::s8, any);
  const memory::desc bias_any =
      epilogue.bias >= 0 ? memory::desc({output_shape[1]}, memory::data_type::f32, any) : memory::desc();
  const memory::desc dst_any(ToDims(output_shape), memory::data_type::f32, any);
  dnnl::primitive_attr attr = MakeAttr(epilogue);
  attr.set_output_scales(1 << 1, quantized.output_scales);
  const memory::dims dilation = {window.dilation[0] - 1, window.dilation[1] - 1};
  const auto primitive = Describe<dnnl::convolution_forward>(
      src_any, weights_any, bias_any, dst_any, dnnl::algorithm::convolution_direct,
      {window.strides[0], window.strides[1]}, dilation, {window.pad_begin[0], window.pad_begin[1]}, pad_end, attr,
      lowering.engine());
  const memory::desc stored(ToDims(weights.shape()), memory::data_type::s8, memory::format_tag::oihw);
  std::unordered_map<int, memory> args;
  args[DNNL_ARG_SRC] = lowering.GetQuantized(call.inputs[0], primitive.src_desc(), activation);
  args[DNNL_ARG_WEIGHTS] = PackQuantizedWeights(lowering, weights, quantized.scales, stored, primitive.weights_desc());
  if (epilogue.bias >= 0) {
    args[DNNL_ARG_BIAS] = ScaledBias(lowering, epilogue.bias, quantized.output_scales, primitive.bias_desc());
  }
  args[DNNL_ARG_DST] = PrepareDestination(lowering, epilogue, primitive.dst_desc());
  lowering.AddStep(dnnl::convolution_forward(primitive), std::move(args));
}

}  // namespace

void LowerConvolution(Lowering& lowering, const FlatCall& call, const Epilogue& epilogue) {
  const bool transposed = call.op == "nn.conv2d_transpose";
  const Shape& data_shape = lowering.value(call.inputs[0]).shape;
  if (data_shape.size() != 4) {
    lowering.Fail(call.op + " on " + std::to_string(data_shape.size()) + "-D data (NCHW only)");
  }
  const Window2D window = GetWindow2D(call.call->attrs);
  const memory::desc weight_view =
      WeightView(lowering.value(call.inputs[1]).shape, call.call->attrs.GetInt("groups"), transposed);
  memory::dims pad_end = {window.pad_end[0], window.pad_end[1]};
  const std::optional<QuantizationParameters> quantization = lowering.ActivationQuantizationOf(call.inputs[0]);
  if (!transposed && quantization && call.call->attrs.GetInt("groups") == 1 && lowering.partition().IsConstant(call.inputs[1])) {
    AddQuantizedConvolutionStep(lowering, call, epilogue, *quantization, pad_end);
    return;
  }
  if (!transposed) {
    std::vector<dnnl::algorithm> algorithms = {dnnl::algorithm::convolution_direct};
    if (WinogradIsWorthTrying(lowering, call)) algorithms.insert(algorithms.begin(), dnnl::algorithm::convolution_winograd);
    AddConvolutionStep<dnnl::convolution_forward>(lowering, call, epilogue, algorithms, weight_view, pad_end);
    return;
  }
  // The output padding extends the output at the end: less padding cut off there.
  const std::vector<int64_t>& output_padding = call.call->attrs.GetInts("output_padding");
  for (size_t axis = 0; axis < 2; ++axis) pad_end[axis] -= output_padding[axis];
  AddConvolutionStep<dnnl::deconvolution_forward>(lowering, call, epilogue, {dnnl::algorithm::deconvolution_direct},
                                                  weight_view, pad_end);
}

std::optional<Layout> ConvolutionPreferredLayout(const dnnl::engine& engine) {
  const auto any = memory::format_tag::any;
  const auto f32 = memory::data_type::f32;
  const memory::dims data = {1, 64, 28, 28};
  const memory::desc src(data, f32, any);
  const memory::desc weights({64, 64, 3, 3}, f32, any);
  const memory::desc dst(data, f32, any);
  const auto primitive = Describe<dnnl::convolution_forward>(src, weights, memory::desc(), dst,
                                                             dnnl::algorithm::convolution_direct, {1, 1}, {0, 0},
                                                             {1, 1}, {1, 1}, dnnl::primitive_attr(), engine);
  if (!IsOptimized(primitive.impl_info_str())) return std::nullopt;
  for (Layout layout : {Layout::kChannelsLast, Layout::kChannelBlocked8, Layout::kChannelBlocked16}) {
    if (primitive.src_desc() == BoundaryDesc({1, 64, 28, 28}, layout)) return layout;
  }
  return std::nullopt;
}

}  // namespace collage::onednn
