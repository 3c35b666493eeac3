#include "testing/graph_builders.h"

namespace collage::testing {

Function MakeChain(int length) {
  Var x = MakeVar("x", F32({2, 3}));
  Expr current = x;
  for (int i = 0; i < length; ++i) {
    current = i % 2 == 0 ? Expr(CallOp("nn.relu", {current})) : Expr(CallOp("add", {current, x}));
  }
  return MakeFunction({x}, current);
}

Function MakeDiamondLattice(int layers, int width) {
  Var x = MakeVar("x", F32({4}));
  Constant half = MakeConstant(Tensor::FromVector<float>({0.5f}, {}));
  std::vector<Expr> layer(static_cast<size_t>(width), x);
  for (int k = 0; k < layers; ++k) {
    std::vector<Expr> next;
    for (size_t i = 0; i < layer.size(); ++i) {
      Expr sum = CallOp("add", {layer[i], layer[(i + 1) % layer.size()]});
      next.push_back(CallOp("multiply", {sum, half}));
    }
    layer = std::move(next);
  }
  Expr result = layer[0];
  for (size_t i = 1; i < layer.size(); ++i) result = CallOp("add", {result, layer[i]});
  return MakeFunction({x}, result);
}

Function MakeConvBiasRelu(uint64_t seed) {
  Var x = MakeVar("x", F32({1, 3, 6, 5}));
  Constant weight = MakeConstant(Tensor::Random(DType::kF32, {4, 3, 3, 3}, seed));
  Constant bias = MakeConstant(Tensor::Random(DType::kF32, {4}, seed + 1));
  Expr conv = CallOp("nn.conv2d", {x, weight}, {{"padding", std::vector<int64_t>{1, 1, 1, 1}}});
  Expr biased = CallOp("nn.bias_add", {conv, bias});
  return MakeFunction({x}, CallOp("nn.relu", {biased}));
}

}  // namespace collage::testing
