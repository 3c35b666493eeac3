// Ops that depend on the order of elements along an axis or in a matrix: topk (the k largest
// or smallest, sorted, ties to the lower index), cumsum (running sums, optionally exclusive
// or from the end) and trilu (the upper or lower triangle of the last two dimensions).
#include <algorithm>
#include <numeric>

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

void RegisterTopK(OpRegistry& registry) {
  registry.Register("topk")
      .Describe("the k largest (or smallest) elements along axis, sorted, and their indices (i64); equal elements "
                "keep the lower index first, as ONNX TopK")
      .Args({"data"})
      .Attr("k", AttrKind::kInt)
      .Attr("axis", AttrKind::kInt, int64_t{-1})
      .Attr("largest", AttrKind::kInt, int64_t{1})
      .Pattern(OpPatternKind::kOpaque)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        ExpectDTypeSupported(kNumericDTypes, data, "data");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        const int64_t k = GetIntAtLeast(attrs, "k", 0);
        GetFlag(attrs, "largest");
        if (k > data.shape[axis]) {
          throw TypeError("k = " + std::to_string(k) + " exceeds dimension " + std::to_string(axis) + " of data " +
                          ShapeToString(data.shape));
        }
        Shape shape = data.shape;
        shape[axis] = k;
        return TupleType({TensorType(data.dtype, shape), TensorType(DType::kI64, shape)});
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        CheckKernelDType(kNumericDTypes, data.dtype(), "topk");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "topk attribute axis");
        const int64_t k = attrs.GetInt("k");
        const bool largest = attrs.GetInt("largest") != 0;
        const TupleTypeNode* tuple = AsTupleType(result_type);
        Check(tuple != nullptr && tuple->fields.size() == 2, "topk: the result type must be a pair");
        Tensor values = AllocateResult(tuple->fields[0]);
        Tensor indices = AllocateResult(tuple->fields[1]);
        const AxisSplit input = SplitAtAxis(data.shape(), axis);
        const AxisSplit output{input.outer, k, input.inner};
        std::vector<int64_t> order(static_cast<size_t>(input.extent));
        WithComputeType(data.dtype(), [&]<typename T>() {
          for (int64_t o = 0; o < input.outer; ++o) {
            for (int64_t i = 0; i < input.inner; ++i) {
              auto value = [&](int64_t e) { return LoadElement<T>(data, input.FlatIndex(o, e, i)); };
              std::iota(order.begin(), order.end(), 0);
              std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                return largest ? value(b) < value(a) : value(a) < value(b);
              });
              for (int64_t j = 0; j < k; ++j) {
                CopyElement(data, input.FlatIndex(o, order[j], i), values, output.FlatIndex(o, j, i));
                StoreInt64(indices, output.FlatIndex(o, j, i), order[j]);
              }
            }
          }
        });
        return std::vector<Tensor>{values, indices};
      });
}

void RegisterCumSum(OpRegistry& registry) {
  registry.Register("cumsum")
      .Describe("running sums along axis; exclusive leaves the current element out, reverse sums from the end, as "
                "ONNX CumSum")
      .Args({"data"})
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Attr("exclusive", AttrKind::kInt, int64_t{0})
      .Attr("reverse", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kOpaque)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        ExpectDTypeSupported(kNumericDTypes, data, "data");
        NormalizeAxis(attrs.GetInt("axis"), Rank(data), "attribute axis");
        GetFlag(attrs, "exclusive");
        GetFlag(attrs, "reverse");
        return arg_types[0];
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        CheckKernelDType(kNumericDTypes, data.dtype(), "cumsum");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), "cumsum attribute axis");
        const bool exclusive = attrs.GetInt("exclusive") != 0;
        const bool reverse = attrs.GetInt("reverse") != 0;
        const AxisSplit split = SplitAtAxis(data.shape(), axis);
        Tensor output = AllocateResult(result_type);
        WithComputeType(data.dtype(), [&]<typename T>() {
          for (int64_t o = 0; o < split.outer; ++o) {
            for (int64_t i = 0; i < split.inner; ++i) {
              T sum{0};
              for (int64_t step = 0; step < split.extent; ++step) {
                const int64_t flat = split.FlatIndex(o, reverse ? split.extent - 1 - step : step, i);
                const T element = LoadElement<T>(data, flat);
                if (!exclusive) sum = scalar::Add(sum, element);
                StoreElement(output, flat, sum);
                if (exclusive) sum = scalar::Add(sum, element);
              }
            }
          }
        });
        return std::vector<Tensor>{output};
      });
}

void RegisterTrilu(OpRegistry& registry) {
  registry.Register("trilu")
      .Describe("the upper (column - row >= k) or lower (column - row <= k) triangle of the last two dimensions, "
                "zeros elsewhere, as ONNX Trilu")
      .Args({"data"})
      .Attr("upper", AttrKind::kInt, int64_t{1})
      .Attr("k", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kInjective)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        if (Rank(data) < 2) throw TypeError("data must have rank >= 2, got " + ShapeToString(data.shape));
        GetFlag(attrs, "upper");
        return arg_types[0];
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        const bool upper = attrs.GetInt("upper") != 0;
        const int64_t k = attrs.GetInt("k");
        const int64_t rows = data.shape()[data.shape().size() - 2];
        const int64_t columns = data.shape().back();
        Tensor output = AllocateResult(result_type);
        for (int64_t i = 0; i < data.NumElements(); ++i) {
          const int64_t column = i % columns;
          const int64_t row = (i / columns) % rows;
          if (upper ? column - row >= k : column - row <= k) CopyElement(data, i, output, i);
        }
        return std::vector<Tensor>{output};
      });
}

}  // namespace

void RegisterOrderingOps(OpRegistry& registry) {
  RegisterTopK(registry);
  RegisterCumSum(registry);
  RegisterTrilu(registry);
}

}  // namespace collage
