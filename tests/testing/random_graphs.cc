#include "testing/random_graphs.h"

#include <algorithm>
#include <random>

#include "ir/type.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "support/shape.h"

namespace collage::testing {

const std::vector<std::string>& RandomGraphUnaryOps() {
  static const std::vector<std::string> ops = {"nn.relu", "tanh", "sigmoid", "negative", "abs"};
  return ops;
}

const std::vector<std::string>& RandomGraphBinaryOps() {
  static const std::vector<std::string> ops = {"add", "subtract", "multiply", "maximum"};
  return ops;
}

Function MakeRandomDag(uint64_t seed, int num_ops, const Shape& shape) {
  std::mt19937_64 random(seed);
  auto pick = [&](size_t count) { return static_cast<size_t>(random() % count); };
  const Type type = TensorType(DType::kF32, shape);
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

namespace collage::testing {
namespace {

const Shape& TensorShape(const Expr& node) { return AsTensorType(node->checked_type())->shape; }
DType TensorDType(const Expr& node) { return AsTensorType(node->checked_type())->dtype; }

Expr Typed(Expr node) {
  InferType(node);
  return node;
}

// numpy broadcasting: aligned from the right, each pair equal or one of them 1.
bool Broadcastable(const Shape& a, const Shape& b) {
  for (size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
    const int64_t x = a[a.size() - i], y = b[b.size() - i];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

class VariedDagBuilder {
 public:
  explicit VariedDagBuilder(uint64_t seed) : random_(seed) {}

  Function Build(int num_ops) {
    static const std::vector<Shape> kShapes = {{2, 3}, {3}, {2, 1}, {4, 2, 3}, {}, {0, 3}, {1, 3}, {6}};
    const int num_params = 1 + static_cast<int>(Pick(3));
    for (int i = 0; i < num_params; ++i) {
      Var param = MakeVar("p" + std::to_string(i), TensorType(DType::kF32, kShapes[Pick(kShapes.size())]));
      params_.push_back(param);
      Add(param);
    }
    for (int i = 0; i < num_ops; ++i) AddRandomOp();
    std::vector<Expr> sinks;
    for (size_t i = params_.size(); i < nodes_.size(); ++i) {
      if (uses_[i] == 0) sinks.push_back(nodes_[i]);
    }
    if (sinks.empty()) sinks.push_back(nodes_.back());
    Function function = MakeFunction(params_, sinks.size() == 1 ? sinks[0] : Expr(MakeTuple(sinks)));
    InferType(function);
    return function;
  }

 private:
  size_t Pick(size_t count) { return static_cast<size_t>(random_() % count); }

  void Add(Expr node) {
    nodes_.push_back(Typed(std::move(node)));
    uses_.push_back(0);
  }

  // A recent node of `dtype` (so graphs are deep as well as wide); null when there is none.
  Expr Recent(DType dtype) {
    std::vector<size_t> candidates;
    for (size_t i = nodes_.size(); i-- > 0 && candidates.size() < 4;) {
      if (TensorDType(nodes_[i]) == dtype) candidates.push_back(i);
    }
    if (candidates.empty()) return nullptr;
    const size_t index = candidates[Pick(candidates.size())];
    ++uses_[index];
    return nodes_[index];
  }

  // Another node that broadcasts with `node`, or else a constant that does: a scalar, or the
  // node's shape with some dimensions 1 and maybe fewer leading ones.
  Expr BroadcastPartner(const Expr& node, DType dtype, bool constant_only = false) {
    if (!constant_only && Pick(2) == 0) {
      for (size_t i = nodes_.size(); i-- > 0;) {
        if (nodes_[i] != node && TensorDType(nodes_[i]) == dtype && Broadcastable(TensorShape(nodes_[i]), TensorShape(node))) {
          ++uses_[i];
          return nodes_[i];
        }
      }
    }
    Shape shape;
    if (Pick(3) != 0) {
      const Shape& full = TensorShape(node);
      for (size_t axis = Pick(full.size() + 1); axis < full.size(); ++axis) shape.push_back(Pick(2) ? full[axis] : 1);
    }
    return Typed(MakeConstant(Values(dtype, shape, -3.0, 3.0)));
  }

  Tensor Values(DType dtype, const Shape& shape, double low, double high) {
    return Tensor::Random(dtype, shape, random_(), low, high);
  }

  void AddRandomOp() {
    Expr a = Recent(DType::kF32);
    switch (Pick(9)) {
      case 0: {
        static const std::vector<std::string> kUnary = {"nn.relu", "tanh", "sigmoid", "negative", "abs", "floor", "ceil"};
        Add(CallOp(kUnary[Pick(kUnary.size())], {a}));
        return;
      }
      case 1:
      case 2: {
        static const std::vector<std::string> kBinary = {"add", "subtract", "multiply", "maximum", "minimum"};
        const std::string& op = kBinary[Pick(kBinary.size())];
        // Products only with constants in [-3, 3], so magnitudes grow at most geometrically.
        Expr b = BroadcastPartner(a, DType::kF32, /*constant_only=*/op == "multiply");
        // The broadcast operand on either side.
        Add(Pick(2) ? CallOp(op, {a, b}) : CallOp(op, {b, a}));
        return;
      }
      case 3: {
        const int64_t elements = NumElements(TensorShape(a));
        std::vector<int64_t> shape = {elements};
        if (elements % 2 == 0 && elements > 0 && Pick(2)) shape = {2, -1};
        Add(CallOp("reshape", {a}, {{"newshape", shape}}));
        return;
      }
      case 4: {
        std::vector<int64_t> axes(TensorShape(a).size());
        for (size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(axes.size() - 1 - i);
        Add(CallOp("transpose", {a}, {{"axes", axes}}));
        return;
      }
      case 5: {
        const Shape& shape = TensorShape(a);
        if (shape.empty()) {
          Expr row = CallOp("reshape", {a}, {{"newshape", std::vector<int64_t>{1}}});
          Add(CallOp("concatenate", {row, row}));
          return;
        }
        const int64_t axis = static_cast<int64_t>(Pick(shape.size()));
        if (shape[axis] >= 2 && Pick(2)) {
          const int64_t first = 1 + static_cast<int64_t>(Pick(static_cast<size_t>(shape[axis] - 1)));
          Expr parts = Typed(CallOp("split", {a}, {{"sizes", std::vector<int64_t>{first, shape[axis] - first}}, {"axis", axis}}));
          Add(MakeTupleGetItem(parts, 0));
          Add(MakeTupleGetItem(parts, 1));
        } else {
          Add(CallOp("concatenate", {a, a}, {{"axis", axis}}));
        }
        return;
      }
      case 6: {
        // Integers with negative values: the floats clipped, scaled and cast (truncating toward
        // zero), then integer arithmetic with a broadcast constant, and back to f32.
        Expr clipped = CallOp("clip", {a}, {{"a_min", -100.0}, {"a_max", 100.0}});
        Expr scaled = CallOp("multiply", {clipped, MakeConstant(Tensor::FromVector<float>({7.5f}, {}))});
        Expr integers = Typed(CallOp("cast", {scaled}, {{"dtype", std::string("i32")}}));
        static const std::vector<std::string> kIntegerBinary = {"add", "subtract", "multiply", "maximum", "minimum"};
        Expr combined = Typed(CallOp(kIntegerBinary[Pick(kIntegerBinary.size())],
                                     {integers, BroadcastPartnerInteger(integers)}));
        Expr unary = Typed(CallOp(Pick(2) ? "abs" : "negative", {combined}));
        Add(unary);
        Add(CallOp("cast", {unary}, {{"dtype", std::string("f32")}}));
        return;
      }
      case 7: {
        // Booleans: a comparison with a broadcast partner choosing between two values.
        static const std::vector<std::string> kCompare = {"less", "greater_equal", "equal"};
        Expr b = BroadcastPartner(a, DType::kF32);
        Expr condition = Typed(CallOp(kCompare[Pick(kCompare.size())], {a, b}));
        if (Pick(2)) condition = Typed(CallOp("logical_not", {condition}));
        Add(condition);
        Add(CallOp("where", {condition, a, b}));
        return;
      }
      default: {
        // Exact halves (-2.5 ... 2.5) added to whole numbers: round's ties, half to even.
        Expr whole = Typed(CallOp("floor", {CallOp("multiply", {a, MakeConstant(Tensor::FromVector<float>({3.0f}, {}))})}));
        std::vector<float> halves;
        const Shape& shape = TensorShape(a);
        const int64_t last = shape.empty() ? 1 : shape.back();
        for (int64_t i = 0; i < last; ++i) halves.push_back(static_cast<float>(i % 6) - 2.5f);
        Expr half_constant = shape.empty() ? MakeConstant(Tensor::FromVector<float>({-0.5f}, {}))
                                           : MakeConstant(Tensor::FromVector<float>(halves, {last}));
        Add(CallOp("round", {CallOp("add", {whole, half_constant})}));
        return;
      }
    }
  }

  Expr BroadcastPartnerInteger(const Expr& integers) {
    Shape shape;
    const Shape& full = TensorShape(integers);
    for (size_t axis = Pick(full.size() + 1); axis < full.size(); ++axis) shape.push_back(Pick(2) ? full[axis] : 1);
    return Typed(MakeConstant(Values(DType::kI32, shape, -9.0, 9.0)));
  }

  std::mt19937_64 random_;
  std::vector<Var> params_;
  std::vector<Expr> nodes_;
  std::vector<int> uses_;
};

}  // namespace

Function MakeVariedRandomDag(uint64_t seed, int num_ops) { return VariedDagBuilder(seed).Build(num_ops); }

}  // namespace collage::testing
