// What the xnnpack backend refuses, and that its declared op predicate agrees with Compile:
// on generated calls of every mapped op (attributes drawn to hit both sides of each rule), the
// predicate accepts exactly what compiles, and what compiles matches the reference.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include <random>

#include "backend/backend_test_util.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_test_graphs.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "support/error.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using testing::xnnpack::F32;
using testing::xnnpack::RandomConstant;
using testing::xnnpack::TypedFunction;
using Ints = std::vector<int64_t>;

// The Error message Compile throws for `function`, or "" when it compiles.
std::string CompileError(const Function& function) {
  try {
    XnnpackBackend().Compile(function, {});
    return "";
  } catch (const Error& error) {
    return error.what();
  }
}

Function OneCall(const std::string& op, const Shape& shape, const Attrs& attrs = {}) {
  Var x = MakeVar("x", F32(shape));
  return TypedFunction({x}, CallOp(op, {x}, attrs));
}

TEST(XnnpackSupportTest, BackendDescribesItself) {
  const XnnpackBackend backend;
  EXPECT_EQ(backend.kind(), BackendKind::kGraphRuntime);
  EXPECT_EQ(backend.Support().boundary_layouts, (std::vector<Layout>{Layout::kPlain, Layout::kChannelsLast}));
  EXPECT_NE(BackendRegistry::Global().Find("xnnpack"), nullptr);
  EXPECT_GT(backend.Performance().op_efficiency.at("nn.conv2d"), 0.0);
}

struct RejectionCase {
  const char* name;
  Function function;
  const char* message;
};

std::vector<RejectionCase> RejectionCases() {
  Var x4 = MakeVar("x", F32({1, 3, 6, 6}));
  Var w = MakeVar("w", F32({4, 3, 3, 3}));
  Var f16 = MakeVar("h", TensorType(DType::kF16, {2, 3}));
  Var x5 = MakeVar("x", F32({1, 2, 3, 4, 5}));
  Var a = MakeVar("a", F32({2, 3}));
  Var b = MakeVar("b", F32({2, 3}));
  Var plane = MakeVar("p", F32({3, 6, 1}));
  return {
      {"tanh", OneCall("tanh", {2, 3}), "xnnpack: tanh has no XNNPACK equivalent"},
      {"concatenate", TypedFunction({a, b}, CallOp("concatenate", {a, b}, {{"axis", int64_t{1}}})),
       "concatenate has no XNNPACK equivalent"},
      {"f16", TypedFunction({f16}, CallOp("nn.relu", {f16})), "XNNPACK runs f32 only"},
      {"rank5", TypedFunction({x5}, CallOp("nn.relu", {x5})), "rank 5"},
      {"weight_not_constant", TypedFunction({x4, w}, CallOp("nn.conv2d", {x4, w})), "weight is not a constant"},
      {"count_include_pad",
       OneCall("nn.avg_pool2d", {1, 3, 6, 6},
               {{"pool_size", Ints{3, 3}}, {"padding", Ints{1, 1, 1, 1}}, {"count_include_pad", int64_t{1}}}),
       "count_include_pad"},
      {"softmax_axis", OneCall("nn.softmax", {1, 3, 4, 5}, {{"axis", int64_t{3}}}), "innermost axis"},
      {"flatten_spatial", OneCall("flatten", {1, 3, 4, 4}), "transpose out of NHWC"},
      {"broadcast_plane", TypedFunction({x4, plane}, CallOp("add", {x4, plane})), "needs a transpose into NHWC"},
      {"pool_1x1", OneCall("nn.max_pool2d", {1, 3, 6, 6}, {{"pool_size", Ints{1, 1}}}), "1x1 pooling"},
      {"clip_empty", OneCall("clip", {2, 3}, {{"a_min", 1.0}, {"a_max", 1.0}}), "a_min < a_max"},
  };
}

TEST(XnnpackSupportTest, UnsupportedCallsGiveAOneLineReason) {
  const SupportDeclaration support = XnnpackBackend().Support();
  for (const RejectionCase& c : RejectionCases()) {
    const std::string error = CompileError(c.function);
    EXPECT_NE(error.find(c.message), std::string::npos) << c.name << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << c.name;
    EXPECT_FALSE(support.Supports(*As<CallNode>(c.function->body))) << c.name;
  }
}

TEST(XnnpackSupportTest, TupleParametersAndFunctionCallsAreRejected) {
  Var x = MakeVar("x", F32({2, 3}));
  Function inner = MakeFunction({x}, CallOp("nn.relu", {x}), {{"Composite", std::string("other.relu")}});
  Var y = MakeVar("y", F32({2, 3}));
  EXPECT_NE(CompileError(TypedFunction({y}, MakeCall(inner, {y}))).find("calls to functions"), std::string::npos);
}

// Random calls of every mapped op, with attributes on both sides of the support rules.
class CallGenerator {
 public:
  explicit CallGenerator(uint64_t seed) : rng_(seed), seed_(seed) {}

  Function Next(const std::string& op) {
    params_.clear();
    const Expr body = MakeBody(op);
    return TypedFunction(params_, body);
  }

 private:
  int64_t Int(int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(rng_); }
  bool Coin() { return Int(0, 1) == 1; }
  Shape RandomShape(size_t rank) {
    Shape shape;
    for (size_t i = 0; i < rank; ++i) shape.push_back(Int(1, 5));
    return shape;
  }
  Expr Param(const Shape& shape) {
    params_.push_back(MakeVar("p" + std::to_string(params_.size()), F32(shape)));
    return params_.back();
  }
  Expr ParamOrConstant(const Shape& shape) { return Coin() ? Param(shape) : Expr(RandomConstant(shape, ++seed_)); }

  Attrs WindowAttrs(int64_t pool_h, int64_t pool_w) {
    return {{"strides", Ints{Int(1, 3), Int(1, 3)}},
            {"padding", Ints{Int(0, pool_h - 1), Int(0, pool_w - 1), Int(0, pool_h), Int(0, pool_w)}},
            {"dilation", Coin() ? Ints{1, 1} : Ints{Int(1, 2), Int(1, 2)}}};
  }

  Expr MakeBody(const std::string& op) {
    if (op == "nn.conv2d") {
      const int64_t groups = Int(1, 3);
      const int64_t in_channels = groups * Int(1, 3);
      const int64_t out_channels = groups * Int(1, 3);
      const Expr data = Param({Int(1, 2), in_channels, Int(5, 9), Int(5, 9)});
      Attrs attrs = WindowAttrs(3, 3);
      attrs.Set("groups", groups);
      return CallOp(op, {data, ParamOrConstant({out_channels, in_channels / groups, Int(1, 3), Int(1, 3)})}, attrs);
    }
    if (op == "nn.conv2d_transpose") {
      const int64_t groups = Int(1, 3);
      const int64_t in_channels = groups * Int(1, 3);
      const Expr data = Param({Int(1, 2), in_channels, Int(2, 6), Int(2, 6)});
      Attrs attrs = WindowAttrs(3, 3);
      attrs.Set("groups", groups);
      attrs.Set("output_padding", Ints{Int(0, 2), Int(0, 2)});
      return CallOp(op, {data, ParamOrConstant({in_channels, Int(1, 3), Int(1, 3), Int(1, 3)})}, attrs);
    }
    if (op == "nn.dense") {
      const size_t rank = static_cast<size_t>(Int(1, 4));
      Shape shape = RandomShape(rank);
      return CallOp(op, {Param(shape), ParamOrConstant({Int(1, 5), shape.back()})});
    }
    if (op == "nn.max_pool2d" || op == "nn.avg_pool2d") {
      const int64_t pool_h = Int(1, 3), pool_w = Int(1, 3);
      Attrs attrs = WindowAttrs(pool_h, pool_w);
      attrs.Set("pool_size", Ints{pool_h, pool_w});
      attrs.Set("ceil_mode", Int(0, 1));
      if (op == "nn.avg_pool2d") attrs.Set("count_include_pad", Int(0, 1));
      return CallOp(op, {Param({1, Int(1, 4), Int(6, 9), Int(6, 9)})}, attrs);
    }
    if (op == "nn.adaptive_avg_pool2d") {
      return CallOp(op, {Param({1, Int(1, 3), Int(2, 6), Int(2, 6)})}, {{"output_size", Ints{Int(1, 3), Int(1, 3)}}});
    }
    if (op == "nn.global_avg_pool2d" || op == "nn.global_max_pool2d") {
      return CallOp(op, {Param({Int(1, 2), Int(1, 4), Int(1, 4), Int(1, 4)})});
    }
    if (op == "nn.bias_add") {
      const size_t rank = static_cast<size_t>(Int(1, 4));
      const Shape shape = RandomShape(rank);
      const int64_t axis = Int(0, static_cast<int64_t>(rank) - 1);
      return CallOp(op, {Param(shape), ParamOrConstant({shape[static_cast<size_t>(axis)]})}, {{"axis", axis}});
    }
    if (op == "nn.softmax") {
      const size_t rank = static_cast<size_t>(Int(1, 4));
      return CallOp(op, {Param(RandomShape(rank))}, {{"axis", Int(-1, static_cast<int64_t>(rank) - 1)}});
    }
    if (op == "reshape" || op == "flatten" || op == "squeeze" || op == "expand_dims") {
      Shape shape = RandomShape(static_cast<size_t>(Int(1, 4)));
      if (op == "reshape") return CallOp(op, {Param(shape)}, {{"newshape", Ints{NumElements(shape)}}});
      if (op == "flatten") return CallOp(op, {Param(shape)}, {{"axis", Int(0, static_cast<int64_t>(shape.size()))}});
      if (op == "squeeze") {
        shape.push_back(1);
        return CallOp(op, {Param(shape)}, {{"axes", Ints{static_cast<int64_t>(shape.size()) - 1}}});
      }
      if (shape.size() == 4) shape.pop_back();
      return CallOp(op, {Param(shape)}, {{"axes", Ints{Int(0, static_cast<int64_t>(shape.size()))}}});
    }
    if (op == "nn.pad") {
      const Shape shape = RandomShape(static_cast<size_t>(Int(1, 4)));
      Ints widths;
      for (size_t i = 0; i < 2 * shape.size(); ++i) widths.push_back(Int(Coin() ? 0 : -1, 2));
      return CallOp(op, {Param(shape)}, {{"pad_width", widths}, {"mode", std::string(Coin() ? "constant" : "edge")}});
    }
    if (FindUnaryAttrs(op))
      return CallOp(op, {Param(RandomShape(static_cast<size_t>(Int(1, 4))))}, *FindUnaryAttrs(op));
    // Binary: the right operand drops some leading axes and sets some extents to 1.
    const Shape lhs = RandomShape(static_cast<size_t>(Int(1, 4)));
    Shape rhs(lhs.begin() + Int(0, static_cast<int64_t>(lhs.size()) - 1), lhs.end());
    for (int64_t& extent : rhs) extent = Coin() ? extent : 1;
    return CallOp(op, {Param(lhs), ParamOrConstant(rhs)});
  }

  std::optional<Attrs> FindUnaryAttrs(const std::string& op) {
    if (op == "clip") {
      const double low = static_cast<double>(Int(-2, 1)) / 2;
      return Attrs{{"a_min", low}, {"a_max", low + static_cast<double>(Int(0, 2)) / 2}};
    }
    if (op == "nn.leaky_relu") return Attrs{{"alpha", 0.1}};
    for (const char* unary : {"nn.relu", "sigmoid", "abs", "negative", "floor", "ceil", "round"}) {
      if (op == unary) return Attrs{};
    }
    return std::nullopt;
  }

  std::mt19937_64 rng_;
  uint64_t seed_;
  std::vector<Var> params_;
};

TEST(XnnpackSupportTest, PredicateAcceptsExactlyWhatCompilesAndRunsCorrectly) {
  const XnnpackBackend backend;
  const SupportDeclaration support = backend.Support();
  int accepted = 0, rejected = 0;
  for (const std::string& op : xnnpack::MappedOpNames()) {
    if (op == "sqrt") continue;  // random inputs are negative: NaN on both sides compares unequal
    int accepted_of_op = 0;
    CallGenerator generator(std::hash<std::string>()(op));
    for (int i = 0; i < 12; ++i) {
      Function function;
      try {
        function = generator.Next(op);
      } catch (const Error&) {
        continue;  // the generator drew an ill-typed combination
      }
      const CallNode& call = *As<CallNode>(function->body);
      const bool declared = support.Supports(call);
      const std::string error = CompileError(function);
      EXPECT_EQ(declared, error.empty()) << op << " #" << i << ": " << error;
      if (declared && error.empty()) {
        EXPECT_TRUE(testing::MatchesReference(backend, function, static_cast<uint64_t>(i))) << op << " #" << i;
        ++accepted_of_op;
      } else {
        ++rejected;
      }
    }
    EXPECT_GT(accepted_of_op, 0) << "no generated " << op << " call compiled";
    accepted += accepted_of_op;
  }
  // The generator reaches both sides.
  EXPECT_GT(accepted, 100);
  EXPECT_GT(rejected, 10);
}

// Random DAGs (shared nodes, several results, tanh which XNNPACK lacks): a partition compiles
// exactly when the predicate accepts each of its calls, and then matches the reference.
TEST(XnnpackSupportTest, PredicateOnEveryCallDecidesWholePartitions) {
  const XnnpackBackend backend;
  const SupportDeclaration support = backend.Support();
  int compiled = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const Function function = testing::MakeRandomDag(seed, 8);
    InferType(function);
    bool declared = true;
    for (const Expr& expr : PostOrder(function->body, false)) {
      if (const auto* call = As<CallNode>(expr)) declared = declared && support.Supports(*call);
    }
    const std::string error = CompileError(function);
    EXPECT_EQ(declared, error.empty()) << "seed " << seed << ": " << error;
    if (declared) {
      EXPECT_TRUE(testing::MatchesReference(backend, function, seed)) << "seed " << seed;
      ++compiled;
    }
  }
  EXPECT_GT(compiled, 5);
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
