// The linear-algebra ops: nn.dense (x W^T over the last axis), nn.matmul (numpy matmul),
// nn.batch_matmul (3-D batches, optionally transposed right operand) and nn.bias_add. All
// matrix products reduce to one MatmulProblem: a batch of row-major products whose batch
// shapes broadcast.
#include <algorithm>

#include "op/all_ops.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// out[batch] = a[batch of a] x b[batch of b], where a is rows x depth and b is depth x columns
// (columns x depth when transpose_b). The batch shapes of a and b broadcast to out_batch.
struct MatmulProblem {
  Shape a_batch;
  Shape b_batch;
  Shape out_batch;
  int64_t rows = 0;
  int64_t depth = 0;
  int64_t columns = 0;
  bool transpose_b = false;
};

Shape BroadcastBatchShapes(const Shape& a_batch, const Shape& b_batch) {
  try {
    return BroadcastShapes(a_batch, b_batch);
  } catch (const TypeError& error) {
    throw TypeError(std::string("batch dimensions of a and b: ") + error.what());
  }
}

void ExpectEqualDepth(int64_t a_depth, size_t a_axis, int64_t b_depth, size_t b_axis) {
  if (a_depth != b_depth) {
    throw TypeError("contracted dimensions differ: a dimension " + std::to_string(a_axis) + " is " +
                    std::to_string(a_depth) + " but b dimension " + std::to_string(b_axis) + " is " +
                    std::to_string(b_depth));
  }
}

// numpy.matmul: a 1-D a is a row vector and a 1-D b a column vector.
MatmulProblem NumpyMatmulProblem(const Shape& a, const Shape& b) {
  if (a.empty() || b.empty())
    throw TypeError(std::string(a.empty() ? "a" : "b") + " must have rank at least 1, got a scalar");
  MatmulProblem problem;
  const size_t b_depth_axis = b.size() == 1 ? 0 : b.size() - 2;
  problem.rows = a.size() == 1 ? 1 : a[a.size() - 2];
  problem.depth = a.back();
  problem.columns = b.size() == 1 ? 1 : b.back();
  ExpectEqualDepth(problem.depth, a.size() - 1, b[b_depth_axis], b_depth_axis);
  problem.a_batch.assign(a.begin(), a.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(a.size())));
  problem.b_batch.assign(b.begin(), b.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(b.size())));
  problem.out_batch = BroadcastBatchShapes(problem.a_batch, problem.b_batch);
  return problem;
}

MatmulProblem BatchMatmulProblem(const Shape& a, const Shape& b, bool transpose_b) {
  MatmulProblem problem;
  problem.a_batch = {a[0]};
  problem.b_batch = {b[0]};
  problem.rows = a[1];
  problem.depth = a[2];
  problem.columns = transpose_b ? b[1] : b[2];
  problem.transpose_b = transpose_b;
  ExpectEqualDepth(problem.depth, 2, transpose_b ? b[2] : b[1], transpose_b ? 2 : 1);
  if (a[0] != b[0] && a[0] != 1 && b[0] != 1) {
    throw TypeError("batch dimension 0 differs: a has " + std::to_string(a[0]) + " but b has " + std::to_string(b[0]) +
                    " (one of them must be 1 to broadcast)");
  }
  problem.out_batch = {std::max(a[0], b[0])};
  return problem;
}

MatmulProblem DenseProblem(const Shape& data, const Shape& weight) {
  MatmulProblem problem;
  problem.depth = data.back();
  problem.rows = NumElements(Shape(data.begin(), data.end() - 1));  // also when depth is 0
  problem.columns = weight[0];
  problem.transpose_b = true;
  if (weight[1] != problem.depth) {
    throw TypeError("weight dimension 1 (" + std::to_string(weight[1]) + ") must equal the last data dimension " +
                    std::to_string(data.size() - 1) + " (" + std::to_string(problem.depth) + ")");
  }
  return problem;
}

void ComputeMatmul(const Tensor& a, const Tensor& b, const MatmulProblem& problem, Tensor& result) {
  const std::vector<int64_t> a_batch_index = BroadcastIndexMap(problem.a_batch, problem.out_batch);
  const std::vector<int64_t> b_batch_index = BroadcastIndexMap(problem.b_batch, problem.out_batch);
  const int64_t rows = problem.rows;
  const int64_t depth = problem.depth;
  const int64_t columns = problem.columns;
  float* output = result.data<float>();
  for (size_t batch = 0; batch < a_batch_index.size(); ++batch) {
    const float* a_matrix = a.data<float>() + a_batch_index[batch] * rows * depth;
    const float* b_matrix = b.data<float>() + b_batch_index[batch] * depth * columns;
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t column = 0; column < columns; ++column) {
        double sum = 0.0;
        for (int64_t k = 0; k < depth; ++k) {
          const float b_value = problem.transpose_b ? b_matrix[column * depth + k] : b_matrix[k * columns + column];
          sum += static_cast<double>(a_matrix[row * depth + k]) * b_value;
        }
        output[(static_cast<int64_t>(batch) * rows + row) * columns + column] = static_cast<float>(sum);
      }
    }
  }
}

Type DenseRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  const TensorTypeNode& weight = ExpectTensorArg(arg_types, 1, "weight");
  if (data.shape.empty()) throw TypeError("data must have rank at least 1, got a scalar");
  ExpectRank(weight, 2, "weight");
  ExpectSameDType(data, "data", weight, "weight");
  DenseProblem(data.shape, weight.shape);
  Shape out_shape = data.shape;
  out_shape.back() = weight.shape[0];
  return TensorType(data.dtype, out_shape);
}

void DenseKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  ComputeMatmul(args[0], args[1], DenseProblem(args[0].shape(), args[1].shape()), result);
}

Type MatmulRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& a = ExpectTensorArg(arg_types, 0, "a");
  const TensorTypeNode& b = ExpectTensorArg(arg_types, 1, "b");
  ExpectSameDType(a, "a", b, "b");
  const MatmulProblem problem = NumpyMatmulProblem(a.shape, b.shape);
  Shape out_shape = problem.out_batch;
  if (a.shape.size() > 1) out_shape.push_back(problem.rows);
  if (b.shape.size() > 1) out_shape.push_back(problem.columns);
  return TensorType(a.dtype, out_shape);
}

void MatmulKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  ComputeMatmul(args[0], args[1], NumpyMatmulProblem(args[0].shape(), args[1].shape()), result);
}

Type BatchMatmulRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& a = ExpectTensorArg(arg_types, 0, "a");
  const TensorTypeNode& b = ExpectTensorArg(arg_types, 1, "b");
  ExpectRank(a, 3, "a");
  ExpectRank(b, 3, "b");
  ExpectSameDType(a, "a", b, "b");
  const MatmulProblem problem = BatchMatmulProblem(a.shape, b.shape, GetFlag(attrs, "transpose_b"));
  return TensorType(a.dtype, {problem.out_batch[0], problem.rows, problem.columns});
}

void BatchMatmulKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  ComputeMatmul(args[0], args[1], BatchMatmulProblem(args[0].shape(), args[1].shape(), GetFlag(attrs, "transpose_b")),
                result);
}

Type BiasAddRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  const int64_t axis = NormalizeAxis(attrs.GetInt("axis"), static_cast<int64_t>(data.shape.size()), "attribute axis");
  ExpectVectorArg(arg_types, 1, "bias", data.shape[axis], "data dimension " + std::to_string(axis), data);
  return TensorType(data.dtype, data.shape);
}

void BiasAddKernel(const std::vector<Tensor>& args, const Attrs& attrs, Tensor& result) {
  const Shape& shape = args[0].shape();
  const AxisSplit split = SplitAtAxis(shape, NormalizeAxis(attrs.GetInt("axis"), args[0].rank(), "attribute axis"));
  const float* data = args[0].data<float>();
  const float* bias = args[1].data<float>();
  float* output = result.data<float>();
  for (int64_t outer = 0; outer < split.outer; ++outer) {
    for (int64_t channel = 0; channel < split.extent; ++channel) {
      for (int64_t inner = 0; inner < split.inner; ++inner) {
        const int64_t index = split.FlatIndex(outer, channel, inner);
        output[index] = static_cast<float>(static_cast<double>(data[index]) + bias[channel]);
      }
    }
  }
}

}  // namespace

void RegisterDenseOps(OpRegistry& registry) {
  registry.Register("nn.dense")
      .Describe("fully connected layer: data [..., K] times weight [N, K] transposed gives [..., N]")
      .Args({"data", "weight"})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(DenseRelation)
      .Kernel(MakeF32Kernel("nn.dense", DenseRelation, DenseKernel));

  registry.Register("nn.matmul")
      .Describe("numpy matmul: 1-D operands are promoted to matrices, batch dimensions broadcast")
      .Args({"a", "b"})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(MatmulRelation)
      .Kernel(MakeF32Kernel("nn.matmul", MatmulRelation, MatmulKernel));

  registry.Register("nn.batch_matmul")
      .Describe(
          "batched matrix product of a [B, M, K] and b [B, K, N] (or [B, N, K] with transpose_b); B may be 1 "
          "on one side")
      .Args({"a", "b"})
      .Attr("transpose_b", AttrKind::kInt, int64_t{0})
      .Pattern(OpPatternKind::kOutEWiseFusable)
      .Relation(BatchMatmulRelation)
      .Kernel(MakeF32Kernel("nn.batch_matmul", BatchMatmulRelation, BatchMatmulKernel));

  registry.Register("nn.bias_add")
      .Describe("adds a 1-D bias along one axis of data")
      .Args({"data", "bias"})
      .Attr("axis", AttrKind::kInt, int64_t{1})
      .Pattern(OpPatternKind::kBroadcast)
      .Relation(BiasAddRelation)
      .Kernel(MakeF32Kernel("nn.bias_add", BiasAddRelation, BiasAddKernel));
}

}  // namespace collage
