// Data-movement operators: reshape, transpose, flatten, squeeze, expand_dims, concatenate,
// split, strided_slice, take, broadcast_to and copy. They work for every dtype: kernels copy
// raw elements (op/element_access.h) and never convert values.
#include <algorithm>
#include <limits>

#include "op/all_ops.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/slice_range.h"
#include "op/transpose_permutation.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// The result of a kernel whose output is the input's elements in the same order.
std::vector<Tensor> SameElementsAs(const Tensor& input, const Type& result_type) {
  const TensorTypeNode* result = AsTensorType(result_type);
  Check(result != nullptr, "reference kernel: expected a tensor result type, got " + TypeToString(result_type));
  return {input.Clone().Reshaped(result->shape)};
}

// Normalizes each axis of an attribute against `rank`; TypeError for an axis out of range or
// named twice.
std::vector<int64_t> NormalizeDistinctAxes(const std::vector<int64_t>& axes, int64_t rank,
                                           const std::string& attribute) {
  std::vector<int64_t> normalized;
  for (int64_t axis : axes) {
    const int64_t dimension = NormalizeAxis(axis, rank, "attribute " + attribute);
    if (std::find(normalized.begin(), normalized.end(), dimension) != normalized.end()) {
      throw TypeError("attribute " + attribute + " names dimension " + std::to_string(dimension) + " twice");
    }
    normalized.push_back(dimension);
  }
  return normalized;
}

Shape ReshapeTarget(const Shape& input, const std::vector<int64_t>& newshape) {
  Shape shape = newshape;
  int64_t inferred = -1;
  int64_t known_count = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (inferred >= 0) throw TypeError("attribute newshape " + ShapeToString(newshape) + " has more than one -1");
      inferred = static_cast<int64_t>(d);
    } else if (shape[d] < 0) {
      throw TypeError("attribute newshape " + ShapeToString(newshape) + " has the negative dimension " +
                      std::to_string(shape[d]) + " at " + std::to_string(d));
    } else {
      known_count *= shape[d];
    }
  }
  const int64_t count = NumElements(input);
  if (inferred >= 0) {
    if (known_count == 0 || count % known_count != 0) {
      throw TypeError("cannot reshape data " + ShapeToString(input) + " (" + std::to_string(count) +
                      " elements) to " + ShapeToString(newshape) + ": the -1 dimension cannot be inferred");
    }
    shape[inferred] = count / known_count;
  }
  if (NumElements(shape) != count) {
    throw TypeError("cannot reshape data " + ShapeToString(input) + " (" + std::to_string(count) + " elements) to " +
                    ShapeToString(shape) + " (" + std::to_string(NumElements(shape)) + " elements)");
  }
  return shape;
}

void RegisterReshape(OpRegistry& registry) {
  registry.Register("reshape")
      .Describe("same elements, new shape; one -1 dimension is inferred")
      .Args({"data"})
      .Attr("newshape", AttrKind::kInts)
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        return TensorType(data.dtype, ReshapeTarget(data.shape, attrs.GetInts("newshape")));
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return SameElementsAs(args[0], result_type);
      });
}

}  // namespace

std::vector<int64_t> TransposePermutation(int64_t rank, const std::vector<int64_t>& axes) {
  if (axes.empty()) {
    std::vector<int64_t> reversed;
    for (int64_t d = rank - 1; d >= 0; --d) reversed.push_back(d);
    return reversed;
  }
  if (static_cast<int64_t>(axes.size()) != rank) {
    throw TypeError("attribute axes has " + std::to_string(axes.size()) + " entries but data has rank " +
                    std::to_string(rank));
  }
  return NormalizeDistinctAxes(axes, rank, "axes");
}

namespace {

void RegisterTranspose(OpRegistry& registry) {
  registry.Register("transpose")
      .Describe("permutes dimensions: output dimension i is input dimension axes[i]")
      .Args({"data"})
      .Attr("axes", AttrKind::kInts, std::vector<int64_t>{})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        Shape shape;
        for (int64_t axis : TransposePermutation(Rank(data), attrs.GetInts("axes"))) shape.push_back(data.shape[axis]);
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const std::vector<int64_t> permutation = TransposePermutation(data.rank(), attrs.GetInts("axes"));
        Tensor output = AllocateResult(result_type);
        std::vector<int64_t> input_index(permutation.size());
        for (int64_t i = 0; i < output.NumElements(); ++i) {
          const std::vector<int64_t> output_index = UnravelIndex(i, output.shape());
          for (size_t d = 0; d < permutation.size(); ++d) input_index[permutation[d]] = output_index[d];
          CopyElement(data, RavelIndex(input_index, data.shape()), output, i);
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterFlatten(OpRegistry& registry) {
  registry.Register("flatten")
      .Describe("2-D view (prod(shape[:axis]), prod(shape[axis:])), as ONNX Flatten")
      .Args({"data"})
      .Attr("axis", AttrKind::kInt, int64_t{1})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const int64_t rank = Rank(data);
        const int64_t axis = attrs.GetInt("axis");
        // The split point may be anything from 0 to the rank; a negative one counts from the end.
        const int64_t split = axis < 0 ? axis + rank : axis;
        if (split < 0 || split > rank) {
          throw TypeError("attribute axis: axis " + std::to_string(axis) + " is out of range for data " +
                          ShapeToString(data.shape) + " (expected " + std::to_string(-rank) + " to " +
                          std::to_string(rank) + ")");
        }
        const Shape outer(data.shape.begin(), data.shape.begin() + split);
        const Shape inner(data.shape.begin() + split, data.shape.end());
        return TensorType(data.dtype, {NumElements(outer), NumElements(inner)});
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return SameElementsAs(args[0], result_type);
      });
}

void RegisterSqueeze(OpRegistry& registry) {
  registry.Register("squeeze")
      .Describe("removes the given size-1 dimensions (all size-1 dimensions when axes is empty)")
      .Args({"data"})
      .Attr("axes", AttrKind::kInts, std::vector<int64_t>{})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const std::vector<int64_t>& axes = attrs.GetInts("axes");
        std::vector<bool> removed(data.shape.size(), false);
        for (size_t d = 0; d < data.shape.size(); ++d) removed[d] = axes.empty() && data.shape[d] == 1;
        for (int64_t dimension : NormalizeDistinctAxes(axes, Rank(data), "axes")) {
          if (data.shape[dimension] != 1) {
            throw TypeError("cannot squeeze dimension " + std::to_string(dimension) + " of data " +
                            ShapeToString(data.shape) + ": its extent is " +
                            std::to_string(data.shape[dimension]) + ", not 1");
          }
          removed[dimension] = true;
        }
        Shape shape;
        for (size_t d = 0; d < data.shape.size(); ++d) {
          if (!removed[d]) shape.push_back(data.shape[d]);
        }
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return SameElementsAs(args[0], result_type);
      });
}

void RegisterExpandDims(OpRegistry& registry) {
  registry.Register("expand_dims")
      .Describe("inserts size-1 dimensions at the given positions of the output, as ONNX Unsqueeze")
      .Args({"data"})
      .Attr("axes", AttrKind::kInts)
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const std::vector<int64_t>& axes = attrs.GetInts("axes");
        const int64_t output_rank = Rank(data) + static_cast<int64_t>(axes.size());
        std::vector<bool> inserted(static_cast<size_t>(output_rank), false);
        for (int64_t dimension : NormalizeDistinctAxes(axes, output_rank, "axes")) inserted[dimension] = true;
        Shape shape;
        auto next_input_dimension = data.shape.begin();
        for (bool is_inserted : inserted) shape.push_back(is_inserted ? 1 : *next_input_dimension++);
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return SameElementsAs(args[0], result_type);
      });
}

// Names argument `index` of a variadic op for messages.
std::string TensorsArgName(size_t index) { return "tensors[" + std::to_string(index) + "]"; }

void RegisterConcatenate(OpRegistry& registry) {
  registry.Register("concatenate")
      .Describe("joins tensors along axis; the other dimensions must agree")
      .VariadicArgs(1, "tensors")
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& first = ExpectTensorArg(arg_types, 0, TensorsArgName(0));
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(first), "attribute axis");
        Shape shape = first.shape;
        for (size_t i = 1; i < arg_types.size(); ++i) {
          const std::string name = TensorsArgName(i);
          const TensorTypeNode& tensor = ExpectTensorArg(arg_types, i, name);
          ExpectSameDType(first, TensorsArgName(0), tensor, name);
          ExpectRank(tensor, Rank(first), name);
          for (int64_t d = 0; d < Rank(first); ++d) {
            if (d != axis && tensor.shape[d] != first.shape[d]) {
              throw TypeError(name + " has extent " + std::to_string(tensor.shape[d]) + " in dimension " +
                              std::to_string(d) + " but " + TensorsArgName(0) + " has " +
                              std::to_string(first.shape[d]) + " (only axis " + std::to_string(axis) +
                              " may differ)");
            }
          }
          shape[axis] += tensor.shape[axis];
        }
        return TensorType(first.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        Tensor output = AllocateResult(result_type);
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), output.rank(), "concatenate attribute axis");
        int64_t offset = 0;
        for (const Tensor& input : args) {
          for (int64_t i = 0; i < input.NumElements(); ++i) {
            std::vector<int64_t> index = UnravelIndex(i, input.shape());
            index[axis] += offset;
            CopyElement(input, i, output, RavelIndex(index, output.shape()));
          }
          offset += input.shape()[axis];
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterSplit(OpRegistry& registry) {
  registry.Register("split")
      .Describe("cuts data along axis into consecutive pieces of the given sizes (a tuple)")
      .Args({"data"})
      .Attr("sizes", AttrKind::kInts)
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        const std::vector<int64_t>& sizes = attrs.GetInts("sizes");
        if (sizes.empty()) throw TypeError("attribute sizes is empty");
        std::vector<Type> fields;
        int64_t total = 0;
        for (int64_t size : sizes) {
          if (size < 0) throw TypeError("attribute sizes " + ShapeToString(sizes) + " has a negative size");
          Shape shape = data.shape;
          shape[axis] = size;
          fields.push_back(TensorType(data.dtype, shape));
          total += size;
        }
        if (total != data.shape[axis]) {
          throw TypeError("attribute sizes " + ShapeToString(sizes) + " sums to " + std::to_string(total) +
                          " but dimension " + std::to_string(axis) + " of data " + ShapeToString(data.shape) +
                          " has extent " + std::to_string(data.shape[axis]));
        }
        return TupleType(std::move(fields));
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const TupleTypeNode* tuple = AsTupleType(result_type);
        Check(tuple != nullptr, "split: expected a tuple result type, got " + TypeToString(result_type));
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "split attribute axis");
        std::vector<Tensor> outputs;
        int64_t offset = 0;
        for (const Type& field : tuple->fields) {
          Tensor output = AllocateResult(field);
          for (int64_t i = 0; i < output.NumElements(); ++i) {
            std::vector<int64_t> index = UnravelIndex(i, output.shape());
            index[axis] += offset;
            CopyElement(data, RavelIndex(index, data.shape()), output, i);
          }
          offset += output.shape()[axis];
          outputs.push_back(output);
        }
        return outputs;
      });
}

}  // namespace

// Resolves one dimension of extent `extent` with ONNX Slice semantics: negative bounds count
// from the end, then bounds are clamped ([0, extent] going forward, [-1, extent - 1] backward).
SliceRange ResolveSliceRange(int64_t begin, int64_t end, int64_t step, int64_t extent) {
  const int64_t from_end_begin = begin < 0 ? begin + extent : begin;
  const int64_t from_end_end = end < 0 ? end + extent : end;
  SliceRange range;
  range.step = step;
  if (step > 0) {
    range.start = std::clamp<int64_t>(from_end_begin, 0, extent);
    const int64_t stop = std::clamp<int64_t>(from_end_end, 0, extent);
    range.count = stop > range.start ? (stop - range.start - 1) / step + 1 : 0;
  } else {
    range.start = std::clamp<int64_t>(from_end_begin, -1, extent - 1);
    const int64_t stop = std::clamp<int64_t>(from_end_end, -1, extent - 1);
    range.count = range.start > stop ? (stop - range.start + 1) / step + 1 : 0;
  }
  return range;
}

// One SliceRange per dimension of `shape` (the whole dimension where no axis names it).
std::vector<SliceRange> ResolveSlice(const Shape& shape, const Attrs& attrs) {
  const std::vector<int64_t>& begin = attrs.GetInts("begin");
  const std::vector<int64_t>& end = attrs.GetInts("end");
  const std::vector<int64_t>& strides = attrs.GetInts("strides");
  const std::vector<int64_t>& axes = attrs.GetInts("axes");
  if (end.size() != begin.size()) {
    throw TypeError("attribute end has " + std::to_string(end.size()) + " entries but begin has " +
                    std::to_string(begin.size()));
  }
  if (!strides.empty() && strides.size() != begin.size()) {
    throw TypeError("attribute strides has " + std::to_string(strides.size()) + " entries but begin has " +
                    std::to_string(begin.size()));
  }
  if (!axes.empty() && axes.size() != begin.size()) {
    throw TypeError("attribute axes has " + std::to_string(axes.size()) + " entries but begin has " +
                    std::to_string(begin.size()));
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> dimensions;
  if (axes.empty()) {
    for (int64_t d = 0; d < static_cast<int64_t>(begin.size()); ++d) dimensions.push_back(d);
  } else {
    dimensions = axes;
  }
  dimensions = NormalizeDistinctAxes(dimensions, rank, axes.empty() ? "begin (one entry per dimension)" : "axes");
  std::vector<SliceRange> ranges;
  for (int64_t extent : shape) ranges.push_back(SliceRange{0, 1, extent});
  for (size_t i = 0; i < dimensions.size(); ++i) {
    const int64_t step = strides.empty() ? 1 : strides[i];
    if (step == 0) throw TypeError("attribute strides has a zero stride at position " + std::to_string(i));
    ranges[dimensions[i]] = ResolveSliceRange(begin[i], end[i], step, shape[dimensions[i]]);
  }
  return ranges;
}

namespace {

void RegisterStridedSlice(OpRegistry& registry) {
  registry.Register("strided_slice")
      .Describe("begin:end:stride slices along axes, as ONNX Slice (negative bounds count from the end)")
      .Args({"data"})
      .Attr("begin", AttrKind::kInts)
      .Attr("end", AttrKind::kInts)
      .Attr("strides", AttrKind::kInts, std::vector<int64_t>{})
      .Attr("axes", AttrKind::kInts, std::vector<int64_t>{})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        Shape shape;
        for (const SliceRange& range : ResolveSlice(data.shape, attrs)) shape.push_back(range.count);
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const std::vector<SliceRange> ranges = ResolveSlice(data.shape(), attrs);
        Tensor output = AllocateResult(result_type);
        std::vector<int64_t> input_index(ranges.size());
        for (int64_t i = 0; i < output.NumElements(); ++i) {
          const std::vector<int64_t> output_index = UnravelIndex(i, output.shape());
          for (size_t d = 0; d < ranges.size(); ++d) {
            input_index[d] = ranges[d].start + output_index[d] * ranges[d].step;
          }
          CopyElement(data, RavelIndex(input_index, data.shape()), output, i);
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterTake(OpRegistry& registry) {
  registry.Register("take")
      .Describe("gathers slices of data along axis at the given indices, as ONNX Gather")
      .Args({"data", "indices"})
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 1, "indices");
        if (indices.dtype != DType::kI32 && indices.dtype != DType::kI64) {
          throw TypeError("indices must be i32 or i64, got " + std::string(DTypeName(indices.dtype)));
        }
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        Shape shape(data.shape.begin(), data.shape.begin() + axis);
        shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
        shape.insert(shape.end(), data.shape.begin() + axis + 1, data.shape.end());
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const Tensor& indices = args[1];
        Check(indices.dtype() == DType::kI32 || indices.dtype() == DType::kI64,
              "take: indices must be i32 or i64, got " + std::string(DTypeName(indices.dtype())));
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "take attribute axis");
        const AxisSplit input_split = SplitAtAxis(data.shape(), axis);
        // The output seen as [outer, index, inner].
        const AxisSplit output_split{input_split.outer, indices.NumElements(), input_split.inner};
        const int64_t extent = input_split.extent;
        Tensor output = AllocateResult(result_type);
        for (int64_t j = 0; j < output_split.extent; ++j) {
          const int64_t index = indices.GetAsInt64(j);
          if (index < -extent || index >= extent) {
            throw Error("take: index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) +
                        " of extent " + std::to_string(extent));
          }
          const int64_t position = index < 0 ? index + extent : index;
          for (int64_t o = 0; o < input_split.outer; ++o) {
            for (int64_t k = 0; k < input_split.inner; ++k) {
              CopyElement(data, input_split.FlatIndex(o, position, k), output, output_split.FlatIndex(o, j, k));
            }
          }
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterBroadcastTo(OpRegistry& registry) {
  registry.Register("broadcast_to")
      .Describe("repeats data along size-1 and missing leading dimensions to reach shape (numpy rules)")
      .Args({"data"})
      .Attr("shape", AttrKind::kInts)
      .Pattern(OpPatternKind::kBroadcast)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const Shape& target = attrs.GetInts("shape");
        for (int64_t extent : target) {
          if (extent < 0) throw TypeError("attribute shape " + ShapeToString(target) + " has a negative dimension");
        }
        const int64_t offset = static_cast<int64_t>(target.size()) - Rank(data);
        if (offset < 0) {
          throw TypeError("cannot broadcast data " + ShapeToString(data.shape) + " to the lower-rank shape " +
                          ShapeToString(target));
        }
        for (int64_t d = 0; d < Rank(data); ++d) {
          if (data.shape[d] != 1 && data.shape[d] != target[d + offset]) {
            throw TypeError("cannot broadcast data " + ShapeToString(data.shape) + " to " + ShapeToString(target) +
                            ": dimension " + std::to_string(d) + " has extent " + std::to_string(data.shape[d]) +
                            ", expected 1 or " + std::to_string(target[d + offset]));
          }
        }
        return TensorType(data.dtype, target);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        const Tensor& data = args[0];
        Tensor output = AllocateResult(result_type);
        const std::vector<int64_t> input_index = BroadcastIndexMap(data.shape(), output.shape());
        for (int64_t i = 0; i < output.NumElements(); ++i) CopyElement(data, input_index[i], output, i);
        return std::vector<Tensor>{output};
      });
}

void RegisterCopy(OpRegistry& registry) {
  registry.Register("copy")
      .Describe("identity; returns a fresh copy of data")
      .Args({"data"})
      .Pattern(OpPatternKind::kElemWise)
      .Relation([](const std::vector<Type>& arg_types, const Attrs&) -> Type {
        ExpectTensorArg(arg_types, 0, "data");
        return arg_types[0];
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return SameElementsAs(args[0], result_type);
      });
}

}  // namespace

void RegisterTransformOps(OpRegistry& registry) {
  RegisterReshape(registry);
  RegisterTranspose(registry);
  RegisterFlatten(registry);
  RegisterSqueeze(registry);
  RegisterExpandDims(registry);
  RegisterConcatenate(registry);
  RegisterSplit(registry);
  RegisterStridedSlice(registry);
  RegisterTake(registry);
  RegisterBroadcastTo(registry);
  RegisterCopy(registry);
}

}  // namespace collage
