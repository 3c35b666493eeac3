#include "backend/openblas/gemm_plan.h"

#include <algorithm>
#include <set>

#include "op/kernel_util.h"

namespace collage::openblas {
namespace {

[[noreturn]] void Fail(const std::string& reason) { throw Error("openblas: " + reason); }

// The operand and result batch shapes of a product; offsets follow from them.
struct BatchShapes {
  Shape a;
  Shape b;
  Shape out;
};

void SetOffsets(const BatchShapes& batches, GemmStep& step) {
  for (int64_t index : BroadcastIndexMap(batches.a, batches.out)) step.a_offsets.push_back(index * step.rows * step.depth);
  for (int64_t index : BroadcastIndexMap(batches.b, batches.out)) {
    step.b_offsets.push_back(index * step.depth * step.columns);
  }
}

// nn.dense: data [..., K] x weight [N, K]^T.
GemmStep PlanDense(const Shape& data, const Shape& weight) {
  GemmStep step;
  step.depth = data.back();
  step.rows = NumElements(Shape(data.begin(), data.end() - 1));
  step.columns = weight[0];
  step.transpose_b = true;
  SetOffsets({}, step);
  return step;
}

// nn.batch_matmul: a [B, M, K] x b [B, K, N] (or [B, N, K] with transpose_b), batch 1 broadcasts.
GemmStep PlanBatchMatmul(const Shape& a, const Shape& b, bool transpose_b) {
  GemmStep step;
  step.rows = a[1];
  step.depth = a[2];
  step.columns = transpose_b ? b[1] : b[2];
  step.transpose_b = transpose_b;
  SetOffsets({{a[0]}, {b[0]}, {std::max(a[0], b[0])}}, step);
  return step;
}

// nn.matmul (numpy): a 1-D a is a row vector, a 1-D b a column vector; batch dims broadcast.
GemmStep PlanNumpyMatmul(const Shape& a, const Shape& b, const Shape& out) {
  GemmStep step;
  step.rows = a.size() == 1 ? 1 : a[a.size() - 2];
  step.depth = a.back();
  step.columns = b.size() == 1 ? 1 : b.back();
  BatchShapes batches;
  batches.a.assign(a.begin(), a.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(a.size())));
  batches.b.assign(b.begin(), b.end() - std::min<ptrdiff_t>(2, static_cast<ptrdiff_t>(b.size())));
  batches.out.assign(out.begin(), out.end() - (a.size() > 1 ? 1 : 0) - (b.size() > 1 ? 1 : 0));
  SetOffsets(batches, step);
  return step;
}

bool IsProduct(const std::string& op) { return op == "nn.dense" || op == "nn.matmul" || op == "nn.batch_matmul"; }

GemmStep PlanProduct(const FlatPartition& partition, const FlatCall& call) {
  const Shape& a = partition.value(call.inputs[0]).shape;
  const Shape& b = partition.value(call.inputs[1]).shape;
  GemmStep step;
  if (call.op == "nn.dense") {
    step = PlanDense(a, b);
  } else if (call.op == "nn.batch_matmul") {
    step = PlanBatchMatmul(a, b, call.call->attrs.GetInt("transpose_b") != 0);
  } else {
    step = PlanNumpyMatmul(a, b, partition.value(call.output).shape);
  }
  step.a = call.inputs[0];
  step.b = call.inputs[1];
  step.output = call.output;
  return step;
}

// The bias `call` adds to `product` (a value of `columns` columns), or an undefined tensor
// when `call` is not a bias epilogue of it.
Tensor BiasOf(const FlatPartition& partition, const FlatCall& call, int product, int64_t columns) {
  const Shape& product_shape = partition.value(product).shape;
  if (partition.value(call.output).shape != product_shape) return {};
  int bias = -1;
  if (call.op == "nn.bias_add" && call.inputs[0] == product) {
    const int64_t rank = static_cast<int64_t>(product_shape.size());
    const int64_t axis = call.call->attrs.GetInt("axis");
    if (axis != rank - 1 && axis != -1) return {};
    bias = call.inputs[1];
  } else if (call.op == "add" && call.inputs[0] != call.inputs[1]) {
    bias = call.inputs[0] == product ? call.inputs[1] : call.inputs[0];
  } else {
    return {};
  }
  if (!partition.IsConstant(bias)) return {};
  const Shape& bias_shape = partition.value(bias).shape;
  const bool one_per_column = !bias_shape.empty() && bias_shape.back() == columns &&
                              NumElements(bias_shape) == columns && bias_shape.size() <= product_shape.size();
  return one_per_column ? partition.value(bias).constant : Tensor();
}

void ExpectF32(const FlatPartition& partition, const FlatCall& call) {
  for (int id : call.inputs) {
    if (partition.value(id).dtype != DType::kF32) {
      Fail(call.op + " on " + std::string(DTypeName(partition.value(id).dtype)) + " tensors (only f32 is supported)");
    }
  }
}

}  // namespace

std::vector<GemmStep> PlanGemms(const FlatPartition& partition) {
  std::set<int> fused;
  std::vector<GemmStep> steps;
  for (size_t i = 0; i < partition.calls.size(); ++i) {
    if (fused.count(static_cast<int>(i))) continue;
    const FlatCall& call = partition.calls[i];
    if (!IsProduct(call.op)) {
      Fail("op " + call.op + " is not supported (only nn.dense, nn.matmul, nn.batch_matmul and a bias on their result)");
    }
    ExpectF32(partition, call);
    GemmStep step = PlanProduct(partition, call);
    if (partition.HasSingleCallUse(call.output)) {
      const int consumer = partition.consumers[call.output].front();
      const FlatCall& epilogue = partition.calls[consumer];
      step.bias = BiasOf(partition, epilogue, call.output, step.columns);
      if (step.bias.defined()) {
        if (step.bias.dtype() != DType::kF32) Fail("a bias of dtype " + std::string(DTypeName(step.bias.dtype())));
        step.output = epilogue.output;
        fused.insert(consumer);
      }
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace collage::openblas
