// Reductions: sum, mean, max, min and prod over a set of axes, and argmax / argmin along one
// axis. Kernels accumulate in the compute type of the input (op/element_access.h); max, min,
// argmax and argmin propagate NaN like numpy, and argmax / argmin return the first occurrence.
#include <algorithm>
#include <limits>

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

// For each dimension of `shape`, whether the axis attribute reduces it (all when empty).
std::vector<bool> ReducedDimensions(const Shape& shape, const std::vector<int64_t>& axes) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(shape.size(), axes.empty());
  for (int64_t axis : axes) {
    const int64_t dimension = NormalizeAxis(axis, rank, "attribute axis");
    if (reduced[dimension]) {
      throw TypeError("attribute axis names dimension " + std::to_string(dimension) + " twice");
    }
    reduced[dimension] = true;
  }
  return reduced;
}

// The result shape with reduced dimensions kept as 1 (keepdims) or dropped.
Shape ReducedShape(const Shape& shape, const std::vector<bool>& reduced, bool keepdims) {
  Shape result;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!reduced[d]) {
      result.push_back(shape[d]);
    } else if (keepdims) {
      result.push_back(1);
    }
  }
  return result;
}

// How a reduction combines the elements of one group, in compute type T.
template <typename T>
struct Reducer {
  T initial;
  T (*combine)(T accumulated, T element);
};

enum class Reduction { kSum, kMean, kMax, kMin, kProd };

template <typename T>
Reducer<T> MakeReducer(Reduction reduction) {
  switch (reduction) {
    case Reduction::kSum:
    case Reduction::kMean: return {T{0}, [](T a, T b) { return scalar::Add(a, b); }};
    case Reduction::kProd: return {T{1}, [](T a, T b) { return scalar::Multiply(a, b); }};
    case Reduction::kMax:
      return {std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                   : std::numeric_limits<T>::lowest(),
              [](T a, T b) { return scalar::Maximum(a, b); }};
    case Reduction::kMin:
      return {std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                   : std::numeric_limits<T>::max(),
              [](T a, T b) { return scalar::Minimum(a, b); }};
  }
  return {T{0}, nullptr};
}

void RegisterReduction(OpRegistry& registry, const std::string& name, std::string description, Reduction reduction) {
  const DTypeSupport support = reduction == Reduction::kMean ? kFloatDTypes : kNumericDTypes;
  const bool needs_elements = reduction == Reduction::kMax || reduction == Reduction::kMin;
  registry.Register(name)
      .Describe(std::move(description))
      .Args({"data"})
      .Attr("axis", AttrKind::kInts, std::vector<int64_t>{})
      .Attr("keepdims", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kCommReduce)
      .Relation([support, needs_elements](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        ExpectDTypeSupported(support, data, "data");
        const std::vector<bool> reduced = ReducedDimensions(data.shape, attrs.GetInts("axis"));
        for (size_t d = 0; d < reduced.size(); ++d) {
          if (needs_elements && reduced[d] && data.shape[d] == 0) {
            throw TypeError("cannot reduce dimension " + std::to_string(d) + " of data " +
                            ShapeToString(data.shape) + ": it is empty and the reduction has no identity");
          }
        }
        return TensorType(data.dtype, ReducedShape(data.shape, reduced, GetFlag(attrs, "keepdims")));
      })
      .Kernel([name, support, reduction](const std::vector<Tensor>& args, const Attrs& attrs,
                                         const Type& result_type) {
        const Tensor& data = args[0];
        CheckKernelDType(support, data.dtype(), name);
        const std::vector<bool> reduced = ReducedDimensions(data.shape(), attrs.GetInts("axis"));
        // The result laid out with kept dimensions broadcasts back onto the input, which maps
        // every input element to the result element it reduces into.
        const Shape kept_shape = ReducedShape(data.shape(), reduced, /*keepdims=*/true);
        const std::vector<int64_t> output_index = BroadcastIndexMap(kept_shape, data.shape());
        const int64_t group_size = data.NumElements() / std::max<int64_t>(NumElements(kept_shape), 1);
        Tensor output = AllocateResult(result_type);
        WithComputeType(data.dtype(), [&]<typename T>() {
          const Reducer<T> reducer = MakeReducer<T>(reduction);
          std::vector<T> accumulated(static_cast<size_t>(output.NumElements()), reducer.initial);
          for (int64_t i = 0; i < data.NumElements(); ++i) {
            T& slot = accumulated[output_index[i]];
            slot = reducer.combine(slot, LoadElement<T>(data, i));
          }
          for (int64_t i = 0; i < output.NumElements(); ++i) {
            if (reduction == Reduction::kMean) {
              StoreElement(output, i, static_cast<double>(accumulated[i]) / static_cast<double>(group_size));
            } else {
              StoreElement(output, i, accumulated[i]);
            }
          }
        });
        return std::vector<Tensor>{output};
      });
}

enum class ArgReduction { kMax, kMin };

// Whether `candidate` replaces `best` as the arg-extremum; NaN wins and ties keep the first.
template <typename T>
bool Replaces(ArgReduction reduction, T candidate, T best) {
  if (scalar::IsNaN(best)) return false;
  if (scalar::IsNaN(candidate)) return true;
  return reduction == ArgReduction::kMax ? candidate > best : candidate < best;
}

void RegisterArgReduction(OpRegistry& registry, const std::string& name, std::string description,
                          ArgReduction reduction) {
  registry.Register(name)
      .Describe(std::move(description))
      .Args({"data"})
      .Attr("axis", AttrKind::kInt, int64_t{0})
      .Attr("keepdims", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kCommReduce)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        ExpectDTypeSupported(kNumericDTypes, data, "data");
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), static_cast<int64_t>(data.shape.size()),
                                           "attribute axis");
        if (data.shape[axis] == 0) {
          throw TypeError("axis " + std::to_string(axis) + " of data " + ShapeToString(data.shape) + " is empty");
        }
        std::vector<bool> reduced(data.shape.size(), false);
        reduced[axis] = true;
        return TensorType(DType::kI64, ReducedShape(data.shape, reduced, GetFlag(attrs, "keepdims")));
      })
      .Kernel([name, reduction](const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
        const Tensor& data = args[0];
        CheckKernelDType(kNumericDTypes, data.dtype(), name);
        const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), data.rank(), name + " attribute axis");
        const AxisSplit split = SplitAtAxis(data.shape(), axis);
        Check(split.extent > 0, name + ": axis " + std::to_string(axis) + " is empty");
        Tensor output = AllocateResult(result_type);
        int64_t* indices = output.data<int64_t>();
        WithComputeType(data.dtype(), [&]<typename T>() {
          for (int64_t o = 0; o < split.outer; ++o) {
            for (int64_t i = 0; i < split.inner; ++i) {
              int64_t best_index = 0;
              T best = LoadElement<T>(data, split.FlatIndex(o, 0, i));
              for (int64_t k = 1; k < split.extent; ++k) {
                const T candidate = LoadElement<T>(data, split.FlatIndex(o, k, i));
                if (Replaces(reduction, candidate, best)) {
                  best = candidate;
                  best_index = k;
                }
              }
              indices[o * split.inner + i] = best_index;
            }
          }
        });
        return std::vector<Tensor>{output};
      });
}

}  // namespace

void RegisterReductionOps(OpRegistry& registry) {
  RegisterReduction(registry, "sum", "sum over axes (all when axis is empty)", Reduction::kSum);
  RegisterReduction(registry, "mean", "arithmetic mean over axes (all when axis is empty)", Reduction::kMean);
  RegisterReduction(registry, "max", "maximum over axes (all when axis is empty); NaN propagates", Reduction::kMax);
  RegisterReduction(registry, "min", "minimum over axes (all when axis is empty); NaN propagates", Reduction::kMin);
  RegisterReduction(registry, "prod", "product over axes (all when axis is empty)", Reduction::kProd);
  RegisterArgReduction(registry, "argmax", "index of the first maximum along axis (i64)", ArgReduction::kMax);
  RegisterArgReduction(registry, "argmin", "index of the first minimum along axis (i64)", ArgReduction::kMin);
}

}  // namespace collage
