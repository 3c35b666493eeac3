#include "op/nn_common.h"

#include "op/kernel_util.h"
#include "op/type_relation_util.h"

namespace collage {

std::vector<int64_t> GetIntList(const Attrs& attrs, const std::string& name, size_t count, int64_t min_value) {
  const std::vector<int64_t>& values = attrs.GetInts(name);
  if (values.size() != count) {
    throw TypeError("attribute " + name + " must have " + std::to_string(count) + " entries, got " +
                    AttrValueToString(values));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < min_value) {
      throw TypeError("attribute " + name + "[" + std::to_string(i) + "] must be at least " +
                      std::to_string(min_value) + ", got " + std::to_string(values[i]));
    }
  }
  return values;
}

bool GetFlag(const Attrs& attrs, const std::string& name) {
  const int64_t value = attrs.GetInt(name);
  if (value != 0 && value != 1) {
    throw TypeError("attribute " + name + " must be 0 or 1, got " + std::to_string(value));
  }
  return value == 1;
}

const std::string& GetChoice(const Attrs& attrs, const std::string& name, std::initializer_list<const char*> choices) {
  const std::string& value = attrs.GetString(name);
  std::string listed;
  for (const char* choice : choices) {
    if (value == choice) return value;
    listed += (listed.empty() ? "\"" : ", \"") + std::string(choice) + "\"";
  }
  throw TypeError("attribute " + name + " must be one of " + listed + ", got \"" + value + "\"");
}

int64_t GetIntAtLeast(const Attrs& attrs, const std::string& name, int64_t min_value) {
  const int64_t value = attrs.GetInt(name);
  if (value < min_value) {
    throw TypeError("attribute " + name + " must be at least " + std::to_string(min_value) + ", got " +
                    std::to_string(value));
  }
  return value;
}

Window2D GetWindow2D(const Attrs& attrs) {
  const std::vector<int64_t> strides = GetIntList(attrs, "strides", 2, 1);
  const std::vector<int64_t> dilation = GetIntList(attrs, "dilation", 2, 1);
  const std::vector<int64_t> padding = GetIntList(attrs, "padding", 4, 0);
  Window2D window;
  for (int axis = 0; axis < 2; ++axis) {
    window.strides[axis] = strides[axis];
    window.dilation[axis] = dilation[axis];
    window.pad_begin[axis] = padding[axis];
    window.pad_end[axis] = padding[axis + 2];
  }
  return window;
}

int64_t WindowOutputExtent(int64_t input_extent, int64_t kernel_extent, int axis, const Window2D& window,
                           bool ceil_mode, const std::string& kernel_name) {
  const std::string axis_name = kSpatialAxisNames[axis];
  if (kernel_extent < 1) {
    throw TypeError(kernel_name + " " + axis_name + " must be positive, got " + std::to_string(kernel_extent));
  }
  const int64_t stride = window.strides[axis];
  const int64_t dilated_kernel = window.dilation[axis] * (kernel_extent - 1) + 1;
  const int64_t padded_input = input_extent + window.pad_begin[axis] + window.pad_end[axis];
  if (input_extent < 1 || padded_input < dilated_kernel) {
    throw TypeError("output " + axis_name + " would be empty: data " + axis_name + " " + std::to_string(input_extent) +
                    " plus padding " + std::to_string(window.pad_begin[axis]) + " + " +
                    std::to_string(window.pad_end[axis]) + " is smaller than the " +
                    (window.dilation[axis] > 1 ? "dilated " : "") + kernel_name + " " + axis_name + " " +
                    std::to_string(dilated_kernel));
  }
  const int64_t span = padded_input - dilated_kernel;
  int64_t extent = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
  if (ceil_mode && (extent - 1) * stride >= input_extent + window.pad_begin[axis]) --extent;
  return extent;
}

AxisSplit SplitAtAxis(const Shape& shape, int64_t axis) {
  AxisSplit split;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis) split.outer *= shape[d];
    if (d == axis) split.extent = shape[d];
    if (d > axis) split.inner *= shape[d];
  }
  return split;
}

void ExpectVectorArg(const std::vector<Type>& arg_types, size_t index, const std::string& name, int64_t extent,
                     const std::string& extent_source, const TensorTypeNode& data) {
  const TensorTypeNode& vector = ExpectTensorArg(arg_types, index, name);
  if (vector.shape != Shape{extent}) {
    throw TypeError(name + " must have shape (" + std::to_string(extent) + ") to match " + extent_source + ", got " +
                    ShapeToString(vector.shape));
  }
  ExpectSameDType(data, "data", vector, name);
}

ReferenceKernel MakeF32Kernel(std::string op_name, TypeRelation relation, F32KernelBody body) {
  return [op_name = std::move(op_name), relation = std::move(relation), body = std::move(body)](
             const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
    std::vector<Type> arg_types;
    for (size_t i = 0; i < args.size(); ++i) {
      Check(args[i].defined(), op_name + ": argument " + std::to_string(i) + " is an empty tensor");
      Check(args[i].dtype() == DType::kF32, op_name + ": the reference kernel supports only f32, argument " +
                                                std::to_string(i) + " is " + std::string(DTypeName(args[i].dtype())));
      arg_types.push_back(TensorType(args[i].dtype(), args[i].shape()));
    }
    Type actual_type;
    try {
      actual_type = relation(arg_types, attrs);
    } catch (const TypeError& error) {
      throw Error(op_name + ": " + error.what());
    }
    Check(TypeEqual(actual_type, result_type), op_name + ": the arguments give the result type " +
                                                   TypeToString(actual_type) + ", but " + TypeToString(result_type) +
                                                   " was requested");
    Tensor result = AllocateResult(result_type);
    body(args, attrs, result);
    return std::vector<Tensor>{result};
  };
}

}  // namespace collage
