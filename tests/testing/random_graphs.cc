#include "testing/random_graphs.h"

#include <random>

#include "op/op_registry.h"

namespace collage::testing {

const std::vector<std::string>& RandomGraphUnaryOps() {
  static const std::vector<std::string> ops = {"nn.relu", "tanh", "sigmoid", "negative", "abs"};
  return ops;
}

const std::vector<std::string>& RandomGraphBinaryOps() {
  static const std::vector<std::string> ops = {"add", "subtract", "multiply", "maximum"};
  return ops;
}

Function MakeRandomDag(uint64_t seed, int num_ops) {
  std::mt19937_64 random(seed);
  auto pick = [&](size_t count) { return static_cast<size_t>(random() % count); };
  const Type type = TensorType(DType::kF32, {2, 3});
  std::vector<Var> params = {MakeVar("x", type)};
  if (random() % 2) params.push_back(MakeVar("y", type));

  std::vector<Expr> nodes(params.begin(), params.end());
  std::vector<int> uses(nodes.size(), 0);
  for (int i = 0; i < num_ops; ++i) {
    // Prefer recent nodes so graphs are deep as well as wide.
    auto pick_input = [&] {
      const size_t window = std::min<size_t>(nodes.size(), 4);
      const size_t index = nodes.size() - 1 - pick(window);
      ++uses[index];
      return nodes[index];
    };
    const bool binary = nodes.size() > 1 && random() % 2;
    Expr call = binary ? Expr(CallOp(RandomGraphBinaryOps()[pick(RandomGraphBinaryOps().size())],
                                     {pick_input(), pick_input()}))
                       : Expr(CallOp(RandomGraphUnaryOps()[pick(RandomGraphUnaryOps().size())], {pick_input()}));
    nodes.push_back(call);
    uses.push_back(0);
  }
  std::vector<Expr> sinks;
  for (size_t i = params.size(); i < nodes.size(); ++i) {
    if (uses[i] == 0) sinks.push_back(nodes[i]);
  }
  return MakeFunction(params, sinks.size() == 1 ? sinks[0] : Expr(MakeTuple(sinks)));
}

}  // namespace collage::testing
