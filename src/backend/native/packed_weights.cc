#include "backend/native/packed_weights.h"

#include "ir/op_registry.h"
#include "support/error.h"
#include "support/shape.h"

// The runtime's packers, compiled for the host: their vector helpers are always inlined, so
// the AVX-sized vector types they pass never cross a call boundary (the host may lack AVX;
// GCC reports such types at the end of the file, hence no pop).
#pragma GCC diagnostic ignored "-Wpsabi"
#include "backend/native/runtime/native_gemm.h"

namespace collage::native {
namespace {

const TensorTypeNode* ArgTensorType(const CallNode& call, size_t arg) {
  return call.args.size() > arg ? AsTensorType(call.args[arg]->checked_type()) : nullptr;
}

bool IsDense(const CallNode& call) { return call.op()->name == "nn.dense"; }

}  // namespace

int64_t PackedWeightsElements(int64_t depth, int64_t columns) { return ::native::PackedPanelsSize(depth, columns); }

bool TakesPackedWeights(const CallNode& call) {
  if (call.op() == nullptr || call.args.size() != 2) return false;
  const TensorTypeNode* data = ArgTensorType(call, 0);
  const TensorTypeNode* b = ArgTensorType(call, 1);
  if (data == nullptr || b == nullptr || data->dtype != DType::kF32 || b->dtype != DType::kF32) return false;
  if (IsDense(call)) {
    const int64_t rows = data->shape.empty() ? 0 : NumElements(data->shape) / std::max<int64_t>(data->shape.back(), 1);
    return b->shape.size() == 2 && rows >= ::native::kMR;
  }
  if (call.op()->name == "nn.matmul") {
    if (data->shape.size() < 2 || b->shape.size() < 2) return false;
    return NumElements(Shape(b->shape.begin(), b->shape.end() - 2)) == 1;
  }
  return false;
}

Tensor PackWeights(const CallNode& call, const Tensor& weights) {
  Check(TakesPackedWeights(call) && weights.dtype() == DType::kF32, "native: packing the weights of a call that takes none");
  const bool transposed = IsDense(call);
  const Shape& shape = weights.shape();
  const int64_t depth = transposed ? shape[1] : shape[shape.size() - 2];
  const int64_t columns = transposed ? shape[0] : shape.back();
  Tensor packed = Tensor::Zeros(DType::kF32, {PackedWeightsElements(depth, columns)});
  const float* b = weights.data<float>();
  if (transposed) {
    ::native::PackAllPanels(::native::TransposedPacker{b, depth}, depth, columns, packed.data<float>());
  } else {
    ::native::PackAllPanels(::native::RowMajorPacker{b, columns}, depth, columns, packed.data<float>());
  }
  return packed;
}

}  // namespace collage::native
