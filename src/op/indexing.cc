// Element-wise indexing: gather_elements and scatter_elements (along one axis), gather_nd and
// scatter_nd (index tuples into leading dimensions), and one_hot. Indices may be negative
// (counted from the end); an index out of range is an Error naming the op, the index and the
// extent. Scatters write their updates in order, so with reduction "none" a repeated index
// keeps the last update.
#include <algorithm>

#include "op/all_ops.h"
#include "op/dtype_support.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/scalar_math.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

void ExpectIndices(const TensorTypeNode& indices, const std::string& name) {
  if (indices.dtype != DType::kI32 && indices.dtype != DType::kI64) {
    throw TypeError(name + " must be i32 or i64, got " + std::string(DTypeName(indices.dtype)));
  }
}

// `index` in [-extent, extent) made non-negative; Error otherwise.
int64_t CheckedIndex(int64_t index, int64_t extent, const std::string& op_name, const std::string& what) {
  if (index < -extent || index >= extent) {
    throw Error(op_name + ": index " + std::to_string(index) + " is out of range for " + what + " of extent " +
                std::to_string(extent));
  }
  return index < 0 ? index + extent : index;
}

// How a scatter combines an update with the element already there.
enum class ScatterReduction { kNone, kAdd, kMultiply, kMax, kMin };

ScatterReduction GetScatterReduction(const Attrs& attrs) {
  const std::string& name = GetChoice(attrs, "reduction", {"none", "add", "mul", "max", "min"});
  if (name == "add") return ScatterReduction::kAdd;
  if (name == "mul") return ScatterReduction::kMultiply;
  if (name == "max") return ScatterReduction::kMax;
  if (name == "min") return ScatterReduction::kMin;
  return ScatterReduction::kNone;
}

// output[destination] = combine(output[destination], updates[source]).
void ScatterElement(const Tensor& updates, int64_t source, Tensor& output, int64_t destination,
                    ScatterReduction reduction) {
  if (reduction == ScatterReduction::kNone) {
    CopyElement(updates, source, output, destination);
    return;
  }
  WithComputeType(output.dtype(), [&]<typename T>() {
    const T current = LoadElement<T>(output, destination);
    const T update = LoadElement<T>(updates, source);
    switch (reduction) {
      case ScatterReduction::kAdd: StoreElement(output, destination, scalar::Add(current, update)); break;
      case ScatterReduction::kMultiply: StoreElement(output, destination, scalar::Multiply(current, update)); break;
      case ScatterReduction::kMax: StoreElement(output, destination, scalar::Maximum(current, update)); break;
      case ScatterReduction::kMin: StoreElement(output, destination, scalar::Minimum(current, update)); break;
      case ScatterReduction::kNone: break;
    }
  });
}

void RegisterGatherElements(OpRegistry& registry) {
  registry.Register("gather_elements")
      .Describe("output[i] = data[i with its axis coordinate replaced by indices[i]], as ONNX GatherElements")
      .Args({"data", "indices"})
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 1, "indices");
        ExpectIndices(indices, "indices");
        ExpectRank(indices, Rank(data), "indices");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        for (int64_t d = 0; d < Rank(data); ++d) {
          if (d != axis && indices.shape[d] > data.shape[d]) {
            throw TypeError("indices " + ShapeToString(indices.shape) + " exceed data " + ShapeToString(data.shape) +
                            " in dimension " + std::to_string(d));
          }
        }
        return TensorType(data.dtype, indices.shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const Tensor& indices = args[1];
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "gather_elements attribute axis");
        Tensor output = AllocateResult(result_type);
        for (int64_t i = 0; i < output.NumElements(); ++i) {
          std::vector<int64_t> position = UnravelIndex(i, indices.shape());
          position[axis] = CheckedIndex(indices.GetAsInt64(i), data.shape()[axis], "gather_elements",
                                        "axis " + std::to_string(axis));
          CopyElement(data, RavelIndex(position, data.shape()), output, i);
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterScatterElements(OpRegistry& registry) {
  registry.Register("scatter_elements")
      .Describe("data with updates[i] written (or combined by reduction) at i with its axis coordinate replaced by "
                "indices[i], as ONNX ScatterElements")
      .Args({"data", "indices", "updates"})
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Attr("reduction", AttrKind::kString, std::string("none"))
      .Pattern(OpPatternKind::kOpaque)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 1, "indices");
        const TensorTypeNode& updates = ExpectTensorArg(arg_types, 2, "updates");
        ExpectIndices(indices, "indices");
        ExpectSameDType(data, "data", updates, "updates");
        ExpectRank(indices, Rank(data), "indices");
        if (updates.shape != indices.shape) {
          throw TypeError("updates " + ShapeToString(updates.shape) + " must have the shape of indices " +
                          ShapeToString(indices.shape));
        }
        NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        if (GetScatterReduction(attrs) != ScatterReduction::kNone) ExpectDTypeSupported(kNumericDTypes, data, "data");
        return arg_types[0];
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type&) {
        const Tensor& data = args[0];
        const Tensor& indices = args[1];
        const Tensor& updates = args[2];
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "scatter_elements attribute axis");
        const ScatterReduction reduction = GetScatterReduction(attrs);
        Tensor output = data.Clone();
        for (int64_t i = 0; i < indices.NumElements(); ++i) {
          std::vector<int64_t> position = UnravelIndex(i, indices.shape());
          position[axis] = CheckedIndex(indices.GetAsInt64(i), data.shape()[axis], "scatter_elements",
                                        "axis " + std::to_string(axis));
          ScatterElement(updates, i, output, RavelIndex(position, data.shape()), reduction);
        }
        return std::vector<Tensor>{output};
      });
}

// The layout shared by gather_nd and scatter_nd: indices [batch..., tuples..., k] address the
// data [batch..., indexed (k dimensions)..., slice...].
struct NDIndexing {
  int64_t batch = 1;        // product of the batch dimensions
  int64_t tuples = 1;       // index tuples per batch entry
  int64_t tuple_size = 0;   // k
  int64_t slice = 1;        // elements per addressed slice
  Shape indexed;            // the k data dimensions the tuples address
};

NDIndexing DescribeNDIndexing(const Shape& data, const Shape& indices, int64_t batch_dims) {
  const int64_t data_rank = static_cast<int64_t>(data.size());
  const int64_t indices_rank = static_cast<int64_t>(indices.size());
  if (indices_rank < 1) throw TypeError("indices must have rank >= 1");
  if (batch_dims < 0 || batch_dims >= indices_rank || batch_dims > data_rank) {
    throw TypeError("attribute batch_dims = " + std::to_string(batch_dims) + " must lie in [0, " +
                    std::to_string(std::min(indices_rank - 1, data_rank)) + "]");
  }
  NDIndexing layout;
  layout.tuple_size = indices.back();
  if (layout.tuple_size < 1 || batch_dims + layout.tuple_size > data_rank) {
    throw TypeError("the last dimension of indices " + ShapeToString(indices) + " must lie in [1, " +
                    std::to_string(data_rank - batch_dims) + "] for data " + ShapeToString(data));
  }
  for (int64_t d = 0; d < batch_dims; ++d) {
    if (data[d] != indices[d]) {
      throw TypeError("batch dimension " + std::to_string(d) + " differs: data " + ShapeToString(data) +
                      ", indices " + ShapeToString(indices));
    }
    layout.batch *= data[d];
  }
  for (int64_t d = batch_dims; d + 1 < indices_rank; ++d) layout.tuples *= indices[d];
  layout.indexed.assign(data.begin() + batch_dims, data.begin() + batch_dims + layout.tuple_size);
  for (int64_t d = batch_dims + layout.tuple_size; d < data_rank; ++d) layout.slice *= data[d];
  return layout;
}

// The flat offset in the data of the slice that tuple `tuple` of batch entry `b` addresses.
int64_t SliceOffset(const Tensor& indices, const NDIndexing& layout, int64_t b, int64_t tuple,
                    const std::string& op_name) {
  const int64_t indexed_elements = NumElements(layout.indexed);
  int64_t offset = 0;
  const int64_t first = (b * layout.tuples + tuple) * layout.tuple_size;
  for (int64_t j = 0; j < layout.tuple_size; ++j) {
    const int64_t extent = layout.indexed[j];
    offset = offset * extent +
             CheckedIndex(indices.GetAsInt64(first + j), extent, op_name, "indexed dimension " + std::to_string(j));
  }
  return (b * indexed_elements + offset) * layout.slice;
}

void RegisterGatherND(OpRegistry& registry) {
  registry.Register("gather_nd")
      .Describe("slices of data addressed by the index tuples in the last dimension of indices, as ONNX GatherND")
      .Args({"data", "indices"})
      .Attr("batch_dims", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 1, "indices");
        ExpectIndices(indices, "indices");
        const int64_t batch_dims = attrs.GetInt("batch_dims");
        const NDIndexing layout = DescribeNDIndexing(data.shape, indices.shape, batch_dims);
        Shape shape(indices.shape.begin(), indices.shape.end() - 1);
        shape.insert(shape.end(), data.shape.begin() + batch_dims + layout.tuple_size, data.shape.end());
        return TensorType(data.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const Tensor& indices = args[1];
        const NDIndexing layout = DescribeNDIndexing(data.shape(), indices.shape(), attrs.GetInt("batch_dims"));
        Tensor output = AllocateResult(result_type);
        for (int64_t b = 0; b < layout.batch; ++b) {
          for (int64_t t = 0; t < layout.tuples; ++t) {
            const int64_t source = SliceOffset(indices, layout, b, t, "gather_nd");
            const int64_t destination = (b * layout.tuples + t) * layout.slice;
            for (int64_t k = 0; k < layout.slice; ++k) CopyElement(data, source + k, output, destination + k);
          }
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterScatterND(OpRegistry& registry) {
  registry.Register("scatter_nd")
      .Describe("data with the slices of updates written (or combined by reduction) where the index tuples of "
                "indices address, as ONNX ScatterND")
      .Args({"data", "indices", "updates"})
      .Attr("reduction", AttrKind::kString, std::string("none"))
      .Pattern(OpPatternKind::kOpaque)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 1, "indices");
        const TensorTypeNode& updates = ExpectTensorArg(arg_types, 2, "updates");
        ExpectIndices(indices, "indices");
        ExpectSameDType(data, "data", updates, "updates");
        const NDIndexing layout = DescribeNDIndexing(data.shape, indices.shape, 0);
        Shape expected(indices.shape.begin(), indices.shape.end() - 1);
        expected.insert(expected.end(), data.shape.begin() + layout.tuple_size, data.shape.end());
        if (updates.shape != expected) {
          throw TypeError("updates " + ShapeToString(updates.shape) + " must have shape " + ShapeToString(expected));
        }
        if (GetScatterReduction(attrs) != ScatterReduction::kNone) ExpectDTypeSupported(kNumericDTypes, data, "data");
        return arg_types[0];
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type&) {
        const Tensor& data = args[0];
        const Tensor& indices = args[1];
        const Tensor& updates = args[2];
        const NDIndexing layout = DescribeNDIndexing(data.shape(), indices.shape(), 0);
        const ScatterReduction reduction = GetScatterReduction(attrs);
        Tensor output = data.Clone();
        for (int64_t t = 0; t < layout.tuples; ++t) {
          const int64_t destination = SliceOffset(indices, layout, 0, t, "scatter_nd");
          for (int64_t k = 0; k < layout.slice; ++k) {
            ScatterElement(updates, t * layout.slice + k, output, destination + k, reduction);
          }
        }
        return std::vector<Tensor>{output};
      });
}

void RegisterOneHot(OpRegistry& registry) {
  registry.Register("one_hot")
      .Describe("values[1] where the new axis equals the index (negative indices count from depth), values[0] "
                "elsewhere, as ONNX OneHot")
      .Args({"indices", "values"})
      .Attr("depth", AttrKind::kInt)
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& indices = ExpectTensorArg(arg_types, 0, "indices");
        const TensorTypeNode& values = ExpectTensorArg(arg_types, 1, "values");
        ExpectDTypeSupported(kNumericDTypes, indices, "indices");
        if (values.shape != Shape{2}) {
          throw TypeError("values must have shape [2] (off, on), got " + ShapeToString(values.shape));
        }
        const int64_t depth = GetIntAtLeast(attrs, "depth", 1);
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(indices) + 1, "attribute axis");
        Shape shape = indices.shape;
        shape.insert(shape.begin() + axis, depth);
        return TensorType(values.dtype, shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& indices = args[0];
        const Tensor& values = args[1];
        const int64_t depth = attrs.GetInt("depth");
        Tensor output = AllocateResult(result_type);
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), output.rank(), "one_hot attribute axis");
        const AxisSplit split = SplitAtAxis(output.shape(), axis);
        for (int64_t o = 0; o < split.outer; ++o) {
          for (int64_t k = 0; k < split.inner; ++k) {
            int64_t index = SaturatingInt64(indices.GetAsDouble(o * split.inner + k));
            if (index < 0) index += depth;
            for (int64_t e = 0; e < depth; ++e) CopyElement(values, e == index ? 1 : 0, output, split.FlatIndex(o, e, k));
          }
        }
        return std::vector<Tensor>{output};
      });
}

}  // namespace

void RegisterIndexingOps(OpRegistry& registry) {
  RegisterGatherElements(registry);
  RegisterScatterElements(registry);
  RegisterGatherND(registry);
  RegisterScatterND(registry);
  RegisterOneHot(registry);
}

}  // namespace collage
