// linalg.det: the determinant of each square matrix in the last two axes, by LU decomposition
// with partial pivoting in double precision (a singular matrix gives 0).
#include <cmath>
#include <utility>
#include <vector>

#include "ir/op_registry.h"
#include "op/all_ops.h"
#include "op/dtype_support.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

Type DeterminantRelation(const std::vector<Type>& arg_types, const Attrs&) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  ExpectDTypeSupported(kFloatDTypes, data, "data");
  const size_t rank = data.shape.size();
  if (rank < 2 || data.shape[rank - 1] != data.shape[rank - 2]) {
    throw TypeError("data must hold square matrices in its last two axes, got shape " + ShapeToString(data.shape));
  }
  return TensorType(data.dtype, Shape(data.shape.begin(), data.shape.end() - 2));
}

double Determinant(std::vector<double> matrix, int64_t size) {
  double determinant = 1.0;
  auto at = [&](int64_t row, int64_t column) -> double& { return matrix[static_cast<size_t>(row * size + column)]; };
  for (int64_t column = 0; column < size; ++column) {
    int64_t pivot = column;
    for (int64_t row = column + 1; row < size; ++row) {
      if (std::fabs(at(row, column)) > std::fabs(at(pivot, column))) pivot = row;
    }
    if (at(pivot, column) == 0.0) return 0.0;
    if (pivot != column) {
      for (int64_t k = 0; k < size; ++k) std::swap(at(pivot, k), at(column, k));
      determinant = -determinant;
    }
    determinant *= at(column, column);
    for (int64_t row = column + 1; row < size; ++row) {
      const double factor = at(row, column) / at(column, column);
      for (int64_t k = column; k < size; ++k) at(row, k) -= factor * at(column, k);
    }
  }
  return determinant;
}

std::vector<Tensor> DeterminantKernel(const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
  const Tensor& data = args[0];
  CheckKernelDType(kFloatDTypes, data.dtype(), "linalg.det");
  Tensor result = AllocateResult(result_type);
  const int64_t size = data.shape().back();
  const int64_t elements = size * size;
  for (int64_t matrix = 0; matrix < result.NumElements(); ++matrix) {
    std::vector<double> values(static_cast<size_t>(elements));
    for (int64_t i = 0; i < elements; ++i) values[static_cast<size_t>(i)] = LoadElement<double>(data, matrix * elements + i);
    StoreDouble(result, matrix, Determinant(std::move(values), size));
  }
  return {result};
}

}  // namespace

void RegisterLinearAlgebraOps(OpRegistry& registry) {
  registry.Register("linalg.det")
      .Describe("determinant of each square matrix in the last two axes")
      .Args({"data"})
      .Pattern(OpPatternKind::kOpaque)
      .Relation(DeterminantRelation)
      .Kernel(DeterminantKernel);
}

}  // namespace collage
