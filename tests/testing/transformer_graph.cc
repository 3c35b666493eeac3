#include "testing/transformer_graph.h"

#include <map>

#include "ir/op_registry.h"

namespace collage::testing {

Function MakeTransformerEncoder(const TransformerConfig& config) {
  const int64_t sequence = config.sequence;
  const int64_t hidden = config.hidden;
  const int64_t heads = config.heads;
  const int64_t head_size = hidden / heads;
  uint64_t seed = 100;
  std::map<Shape, Tensor> shared;
  auto constant = [&](Shape shape) {
    if (!config.share_weights_by_shape) return MakeConstant(Tensor::Random(DType::kF32, std::move(shape), seed++));
    auto it = shared.find(shape);
    if (it == shared.end()) it = shared.emplace(shape, Tensor::Random(DType::kF32, shape, seed++)).first;
    return MakeConstant(it->second);
  };
  auto scalar = [](float value) { return MakeConstant(Tensor::FromVector<float>({value}, {})); };
  auto dense = [&](const Expr& data, int64_t out, int64_t in) {
    return CallOp("add", {CallOp("nn.dense", {data, constant({out, in})}), constant({out})});
  };
  auto to_heads = [&](const Expr& data) {
    Expr split = CallOp("reshape", {data}, {{"newshape", std::vector<int64_t>{sequence, heads, head_size}}});
    return CallOp("transpose", {split}, {{"axes", std::vector<int64_t>{1, 0, 2}}});
  };
  auto layer_norm = [&](const Expr& data) {
    return CallOp("nn.layer_norm", {data, constant({hidden}), constant({hidden})});
  };
  // (x - mean) * rsqrt(var + eps) * gamma + beta.
  auto spelled_out_layer_norm = [&](const Expr& data) {
    const Attrs last_axis{{"axis", std::vector<int64_t>{-1}}, {"keepdims", int64_t{1}}};
    Expr centered = CallOp("subtract", {data, CallOp("mean", {data}, last_axis)});
    Expr variance = CallOp("mean", {CallOp("multiply", {centered, centered})}, last_axis);
    Expr normalized = CallOp("multiply", {centered, CallOp("rsqrt", {CallOp("add", {variance, scalar(1e-5f)})})});
    return CallOp("add", {CallOp("multiply", {normalized, constant({hidden})}), constant({hidden})});
  };
  Var input = MakeVar("input", TensorType(DType::kF32, {sequence, hidden}));
  Expr x = input;
  for (int layer = 0; layer < config.layers; ++layer) {
    Expr q = CallOp("multiply", {to_heads(dense(x, hidden, hidden)), scalar(0.5f)});
    Expr k = to_heads(dense(x, hidden, hidden));
    Expr v = to_heads(dense(x, hidden, hidden));
    Expr scores = CallOp("multiply", {CallOp("nn.batch_matmul", {q, k}, {{"transpose_b", int64_t{1}}}), scalar(0.5f)});
    scores = CallOp("add", {scores, constant({heads, sequence, sequence})});  // attention mask
    Expr context = CallOp("nn.batch_matmul", {CallOp("nn.softmax", {scores}), v});
    Expr merged = CallOp("reshape", {CallOp("transpose", {context}, {{"axes", std::vector<int64_t>{1, 0, 2}}})},
                         {{"newshape", std::vector<int64_t>{sequence, hidden}}});
    x = layer_norm(CallOp("add", {dense(merged, hidden, hidden), x}));
    Expr h = dense(x, 4 * hidden, hidden);
    // GELU, tanh approximation: 0.5 h (1 + tanh(0.7978845608 (h + 0.044715 h^3))).
    Expr cube = CallOp("multiply", {CallOp("multiply", {h, h}), h});
    Expr inner = CallOp("multiply", {CallOp("add", {h, CallOp("multiply", {cube, scalar(0.044715f)})}),
                                     scalar(0.7978845608f)});
    Expr gelu = CallOp("multiply", {CallOp("multiply", {h, scalar(0.5f)}),
                                    CallOp("add", {CallOp("tanh", {inner}), scalar(1.0f)})});
    Expr residual = CallOp("add", {dense(gelu, hidden, 4 * hidden), x});
    x = config.spell_out_second_layer_norm ? spelled_out_layer_norm(residual) : layer_norm(residual);
  }
  return MakeFunction({input}, x);
}

}  // namespace collage::testing
