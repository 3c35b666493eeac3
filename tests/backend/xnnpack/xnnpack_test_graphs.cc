#include "backend/xnnpack/xnnpack_test_graphs.h"

#include "backend/xnnpack/bias_fusion.h"
#include "backend/xnnpack/partition_body.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"

namespace collage::testing::xnnpack {

Constant RandomConstant(Shape shape, uint64_t seed) { return MakeConstant(Tensor::Random(DType::kF32, shape, seed)); }

Expr Conv2D(const Expr& data, int64_t in_channels, const Conv2DParams& params, uint64_t seed) {
  const Constant weight =
      RandomConstant({params.out_channels, in_channels / params.groups, params.kernel[0], params.kernel[1]}, seed);
  return CallOp("nn.conv2d", {data, weight},
                {{"strides", params.strides},
                 {"padding", params.padding},
                 {"dilation", params.dilation},
                 {"groups", params.groups}});
}

Function TypedFunction(std::vector<Var> params, const Expr& body) {
  Function function = MakeFunction(std::move(params), body);
  InferType(function);
  return function;
}

Type F32(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

::collage::xnnpack::PartitionSteps PlanStepsOf(const Function& function) {
  namespace backend = ::collage::xnnpack;
  const std::vector<Expr> post_order = PostOrder(function->body, /*enter_functions=*/false);
  const std::vector<Expr> results = backend::FlattenResults(function->body);
  const backend::BiasFusion fusion = backend::PlanBiasFusion(post_order, backend::CountUses(post_order, results));
  return backend::PlanPartitionSteps(function, post_order, results, fusion);
}

}  // namespace collage::testing::xnnpack
