// 2-D pooling over NCHW data: windowed max/average pools (strides, asymmetric padding,
// dilation, torch/ONNX ceil_mode, count_include_pad), global pools and the torch adaptive
// average pool. Padded positions never take part in a max; an average divides by the number
// of in-bounds taps, or with count_include_pad by the taps inside the padded bounds. A window
// without any in-bounds tap gives -inf (max) or 0 (average).
#include <algorithm>
#include <cmath>

#include "op/all_ops.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

enum class PoolReduction { kMax, kAverage };

// The running maximum, sum and count of the values of one window.
struct PoolAccumulator {
  double maximum = -INFINITY;
  double sum = 0.0;
  int64_t count = 0;

  void Add(double value) {
    maximum = std::max(maximum, value);
    sum += value;
    ++count;
  }
  double Result(PoolReduction reduction, int64_t divisor) const {
    if (reduction == PoolReduction::kMax) return maximum;
    return divisor > 0 ? sum / static_cast<double>(divisor) : 0.0;
  }
};

const TensorTypeNode& ExpectPoolData(const std::vector<Type>& arg_types) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectRank(data, 4, "data");
  return data;
}

Type WindowPoolRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectPoolData(arg_types);
  const std::vector<int64_t> pool_size = GetIntList(attrs, "pool_size", 2, 1);
  const Window2D window = GetWindow2D(attrs);
  const bool ceil_mode = GetFlag(attrs, "ceil_mode");
  if (attrs.Has("count_include_pad")) GetFlag(attrs, "count_include_pad");
  Shape out_shape = {data.shape[0], data.shape[1], 0, 0};
  for (int axis = 0; axis < 2; ++axis) {
    out_shape[2 + axis] =
        WindowOutputExtent(data.shape[2 + axis], pool_size[axis], axis, window, ceil_mode, "pool_size");
  }
  return TensorType(data.dtype, out_shape);
}

F32KernelBody WindowPoolKernel(PoolReduction reduction) {
  return [reduction](const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
    const Shape& in = args[0].shape();
    const Shape& out = result.shape();
    const std::vector<int64_t>& pool_size = attrs.GetInts("pool_size");
    const Window2D window = GetWindow2D(attrs);
    const bool count_include_pad = reduction == PoolReduction::kAverage && GetFlag(attrs, "count_include_pad");
    auto inside = [&](int axis, int64_t position, int64_t begin_margin, int64_t end_margin) {
      return position >= -begin_margin && position < in[2 + axis] + end_margin;
    };
    const float* data = args[0].data<float>();
    float* output = result.data<float>();
    for (int64_t plane = 0; plane < out[0] * out[1]; ++plane) {
      for (int64_t y = 0; y < out[2]; ++y) {
        for (int64_t x = 0; x < out[3]; ++x) {
          PoolAccumulator accumulator;
          int64_t padded_taps = 0;
          for (int64_t ky = 0; ky < pool_size[0]; ++ky) {
            const int64_t in_y = window.TapPosition(0, y, ky);
            for (int64_t kx = 0; kx < pool_size[1]; ++kx) {
              const int64_t in_x = window.TapPosition(1, x, kx);
              if (inside(0, in_y, window.pad_begin[0], window.pad_end[0]) &&
                  inside(1, in_x, window.pad_begin[1], window.pad_end[1])) {
                ++padded_taps;
              }
              if (inside(0, in_y, 0, 0) && inside(1, in_x, 0, 0)) {
                accumulator.Add(data[(plane * in[2] + in_y) * in[3] + in_x]);
              }
            }
          }
          const int64_t divisor = count_include_pad ? padded_taps : accumulator.count;
          output[(plane * out[2] + y) * out[3] + x] = static_cast<float>(accumulator.Result(reduction, divisor));
        }
      }
    }
  };
}

Shape AdaptivePoolShape(const TensorTypeNode& data, int64_t out_height, int64_t out_width) {
  for (int axis = 0; axis < 2; ++axis) {
    if (data.shape[2 + axis] < 1) {
      throw TypeError("data " + std::string(kSpatialAxisNames[axis]) + " (dimension " + std::to_string(2 + axis) +
                      ") must be positive, got " + std::to_string(data.shape[2 + axis]));
    }
  }
  return {data.shape[0], data.shape[1], out_height, out_width};
}

Type GlobalPoolRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectPoolData(arg_types);
  return TensorType(data.dtype, AdaptivePoolShape(data, 1, 1));
}

Type AdaptivePoolRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectPoolData(arg_types);
  const std::vector<int64_t> output_size = GetIntList(attrs, "output_size", 2, 1);
  return TensorType(data.dtype, AdaptivePoolShape(data, output_size[0], output_size[1]));
}

// Output cell i of `out` along an axis of `in` covers [floor(i * in / out), ceil((i + 1) * in / out)).
// A global pool is the 1 x 1 case.
F32KernelBody AdaptivePoolKernel(PoolReduction reduction) {
  return [reduction](const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
    const Shape& in = args[0].shape();
    const Shape& out = result.shape();
    auto window_begin = [&](int axis, int64_t index) { return index * in[2 + axis] / out[2 + axis]; };
    auto window_end = [&](int axis, int64_t index) {
      return ((index + 1) * in[2 + axis] + out[2 + axis] - 1) / out[2 + axis];
    };
    const float* data = args[0].data<float>();
    float* output = result.data<float>();
    for (int64_t plane = 0; plane < out[0] * out[1]; ++plane) {
      for (int64_t y = 0; y < out[2]; ++y) {
        for (int64_t x = 0; x < out[3]; ++x) {
          PoolAccumulator accumulator;
          for (int64_t in_y = window_begin(0, y); in_y < window_end(0, y); ++in_y) {
            for (int64_t in_x = window_begin(1, x); in_x < window_end(1, x); ++in_x) {
              accumulator.Add(data[(plane * in[2] + in_y) * in[3] + in_x]);
            }
          }
          output[(plane * out[2] + y) * out[3] + x] =
              static_cast<float>(accumulator.Result(reduction, accumulator.count));
        }
      }
    }
  };
}

OpDefBuilder RegisterWindowPool(OpRegistry& registry, const std::string& name, const std::string& description,
                                PoolReduction reduction) {
  OpDefBuilder builder = registry.Register(name);
  builder.Describe(description)
      .Args({"data"})
      .Attr("pool_size", AttrKind::kInts)
      .Attr("strides", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("padding", AttrKind::kInts, std::vector<int64_t>{0, 0, 0, 0})
      .Attr("dilation", AttrKind::kInts, std::vector<int64_t>{1, 1})
      .Attr("ceil_mode", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(WindowPoolRelation)
      .Kernel(MakeF32Kernel(name, WindowPoolRelation, WindowPoolKernel(reduction)));
  return builder;
}

OpDefBuilder RegisterAdaptivePool(OpRegistry& registry, const std::string& name, const std::string& description,
                                  PoolReduction reduction, const TypeRelation& relation) {
  OpDefBuilder builder = registry.Register(name);
  builder.Describe(description)
      .Args({"data"})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(relation)
      .Kernel(MakeF32Kernel(name, relation, AdaptivePoolKernel(reduction)));
  return builder;
}

}  // namespace

void RegisterPoolingOps(OpRegistry& registry) {
  RegisterWindowPool(registry, "nn.max_pool2d", "2-D max pooling over NCHW data", PoolReduction::kMax);
  RegisterWindowPool(registry, "nn.avg_pool2d", "2-D average pooling over NCHW data", PoolReduction::kAverage)
      .Attr("count_include_pad", AttrKind::kInt, int64_t{0});
  RegisterAdaptivePool(registry, "nn.global_max_pool2d", "maximum over each NCHW plane, giving (N, C, 1, 1)",
                       PoolReduction::kMax, GlobalPoolRelation);
  RegisterAdaptivePool(registry, "nn.global_avg_pool2d", "mean over each NCHW plane, giving (N, C, 1, 1)",
                       PoolReduction::kAverage, GlobalPoolRelation);
  RegisterAdaptivePool(registry, "nn.adaptive_avg_pool2d",
                       "torch adaptive average pooling of NCHW data to output_size [height, width]",
                       PoolReduction::kAverage, AdaptivePoolRelation)
      .Attr("output_size", AttrKind::kInts);
}

}  // namespace collage
