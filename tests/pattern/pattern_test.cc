// Each pattern node kind: how it is built, what it matches and what it does not.
#include "pattern/pattern.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ir/type_inference.h"
#include "pattern/attr_constraint.h"
#include "pattern/pattern_matcher.h"
#include "pattern/pattern_test_util.h"

namespace collage {
namespace {

using testing::ConstantOf;
using testing::F32;
using testing::TensorVar;

TEST(PatternTest, BuildersMakeTheNodeKindsTheyName) {
  Pattern relu_of_add = IsOp("nn.relu")(IsOp("add")(Wildcard(), IsConstant()));
  ASSERT_EQ(relu_of_add.kind(), PatternKind::kCall);
  const auto* call = relu_of_add.As<CallPatternNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->callee.As<OpPatternNode>()->name(), "nn.relu");
  ASSERT_EQ(call->args.size(), 1u);
  const auto* inner = call->args[0].As<CallPatternNode>();
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->args[0].kind(), PatternKind::kWildcard);
  EXPECT_EQ(inner->args[1].kind(), PatternKind::kConstant);
  EXPECT_EQ(relu_of_add.As<TuplePatternNode>(), nullptr);

  EXPECT_EQ(IsVar("x").As<VarPatternNode>()->name, "x");
  EXPECT_EQ(IsTuple({Wildcard(), Wildcard()}).As<TuplePatternNode>()->fields.size(), 2u);
  EXPECT_EQ(Wildcard().GetItem(2).As<TupleGetItemPatternNode>()->index, 2);
  EXPECT_EQ(IsTupleGetItem(Wildcard()).As<TupleGetItemPatternNode>()->index, kAnyTupleIndex);
  EXPECT_EQ((Wildcard() | IsConstant()).kind(), PatternKind::kAlternative);
  EXPECT_EQ(IsOp("nn.relu")(Wildcard()).Optional().kind(), PatternKind::kOptional);
  EXPECT_EQ(Wildcard().HasDType(DType::kF32).As<DTypePatternNode>()->dtype, DType::kF32);
  EXPECT_EQ(Wildcard().HasShape({1, 2}).As<ShapePatternNode>()->shape, (Shape{1, 2}));
  EXPECT_EQ(Wildcard().HasType(F32({3})).kind(), PatternKind::kType);
  EXPECT_EQ(Dominates(Wildcard(), Wildcard(), Wildcard()).kind(), PatternKind::kDominator);
}

TEST(PatternTest, AttributeConstraintOnACalleeConstrainsTheCall) {
  Pattern conv = IsOp("nn.conv2d").HasAttr({{"groups", int64_t{1}}})(Wildcard(), IsConstant());
  ASSERT_EQ(conv.kind(), PatternKind::kAttr);
  const auto* constraint = conv.As<AttrPatternNode>();
  EXPECT_EQ(constraint->attrs.GetInt("groups"), 1);
  ASSERT_NE(constraint->pattern.As<CallPatternNode>(), nullptr);
  EXPECT_EQ(constraint->pattern.As<CallPatternNode>()->callee.kind(), PatternKind::kOp);
}

TEST(PatternTest, BadBuilderArgumentsAreErrors) {
  try {
    IsOp("nn.not_an_op");
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown op 'nn.not_an_op'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(Wildcard().Optional(), Error);
  EXPECT_THROW(IsOp("nn.relu")().Optional(), Error);
  EXPECT_THROW(IsOp("add")(Wildcard(), Pattern()), Error);
  EXPECT_THROW(IsTupleGetItem(Wildcard(), -2), Error);
  EXPECT_THROW(Dominates(Wildcard(), Pattern(), Wildcard()), Error);
  EXPECT_THROW(Wildcard().HasType(FuncType({}, F32({1}))), Error);
}

TEST(PatternTest, WildcardMatchesAnyExpressionAsAnInput) {
  Var x = TensorVar("x");
  Expr relu = CallOp("nn.relu", {x});
  for (const Expr& expr : {Expr(x), Expr(ConstantOf({2})), relu}) {
    std::vector<PatternMatch> matches = PatternMatcher(expr).MatchesAt(Wildcard(), expr);
    ASSERT_EQ(matches.size(), 1u);
    EXPECT_TRUE(matches[0].inside.empty());
    ASSERT_EQ(matches[0].inputs.size(), 1u);
    EXPECT_EQ(matches[0].inputs[0], expr);
  }
}

TEST(PatternTest, OpAndCallPatternsCheckTheOpAndTheArity) {
  Var x = TensorVar("x");
  Var y = TensorVar("y");
  EXPECT_TRUE(MatchesPattern(IsOp("nn.relu")(Wildcard()), CallOp("nn.relu", {x})));
  EXPECT_FALSE(MatchesPattern(IsOp("nn.relu")(Wildcard()), CallOp("sigmoid", {x})));
  EXPECT_TRUE(MatchesPattern(IsOp("add")(Wildcard(), Wildcard()), CallOp("add", {x, y})));
  EXPECT_FALSE(MatchesPattern(IsOp("add")(Wildcard()), CallOp("add", {x, y})));
  EXPECT_FALSE(MatchesPattern(IsOp("add")(Wildcard(), Wildcard(), Wildcard()), CallOp("add", {x, y})));
  // A wildcard callee matches any op.
  EXPECT_TRUE(MatchesPattern(Wildcard()(Wildcard(), Wildcard()), CallOp("multiply", {x, y})));
}

TEST(PatternTest, ConstantAndVarPatterns) {
  Var x = TensorVar("x");
  Var y = TensorVar("y");
  Constant c = ConstantOf({1, 8});
  Pattern add_constant = IsOp("add")(Wildcard(), IsConstant());
  EXPECT_TRUE(MatchesPattern(add_constant, CallOp("add", {x, c})));
  EXPECT_FALSE(MatchesPattern(add_constant, CallOp("add", {x, y})));
  EXPECT_TRUE(MatchesPattern(IsOp("add")(IsVar(), IsVar()), CallOp("add", {x, y})));
  EXPECT_TRUE(MatchesPattern(IsOp("add")(IsVar("x"), IsVar("y")), CallOp("add", {x, y})));
  EXPECT_FALSE(MatchesPattern(IsOp("add")(IsVar("y"), IsVar()), CallOp("add", {x, y})));
  EXPECT_FALSE(MatchesPattern(IsOp("add")(Wildcard(), IsVar()), CallOp("add", {x, c})));
}

TEST(PatternTest, TupleAndProjectionPatterns) {
  Var a = TensorVar("a");
  Var b = TensorVar("b");
  Tuple pair = MakeTuple({a, b});
  EXPECT_TRUE(MatchesPattern(IsTuple({Wildcard(), Wildcard()}), pair));
  EXPECT_FALSE(MatchesPattern(IsTuple({Wildcard()}), pair));
  EXPECT_FALSE(MatchesPattern(IsTuple({Wildcard(), Wildcard()}), CallOp("add", {a, b})));
  EXPECT_TRUE(MatchesPattern(IsTuple({}), MakeTuple({})));

  Expr second = MakeTupleGetItem(pair, 1);
  EXPECT_TRUE(MatchesPattern(IsTuple({Wildcard(), Wildcard()}).GetItem(1), second));
  EXPECT_FALSE(MatchesPattern(IsTuple({Wildcard(), Wildcard()}).GetItem(0), second));
  EXPECT_TRUE(MatchesPattern(IsTupleGetItem(Wildcard()), second));
  EXPECT_TRUE(MatchesPattern(IsTupleGetItem(Wildcard()), MakeTupleGetItem(pair, 0)));
  EXPECT_FALSE(MatchesPattern(IsTupleGetItem(Wildcard()), pair));
}

TEST(PatternTest, AlternativeMatchesEitherSide) {
  Var x = TensorVar("x");
  Pattern activation = IsOp("nn.relu")(Wildcard()) | IsOp("sigmoid")(Wildcard());
  EXPECT_TRUE(MatchesPattern(activation, CallOp("nn.relu", {x})));
  EXPECT_TRUE(MatchesPattern(activation, CallOp("sigmoid", {x})));
  EXPECT_FALSE(MatchesPattern(activation, CallOp("tanh", {x})));
  // An alternative callee: (add | multiply)(*, *).
  Pattern binary = (IsOp("add") | IsOp("multiply"))(Wildcard(), Wildcard());
  EXPECT_TRUE(MatchesPattern(binary, CallOp("multiply", {x, x})));
  EXPECT_FALSE(MatchesPattern(binary, CallOp("subtract", {x, x})));
}

TEST(PatternTest, OptionalMatchesTheCallOrItsFirstArgument) {
  Var x = TensorVar("x");
  Constant c = ConstantOf({1, 8});
  Pattern bias = IsOp("add")(IsOp("nn.dense")(Wildcard(), IsConstant()), IsConstant());
  Pattern maybe_relu = IsOp("nn.relu")(bias).Optional();
  Expr dense = CallOp("nn.dense", {x, ConstantOf({8, 8})});
  Expr biased = CallOp("add", {dense, c});
  EXPECT_TRUE(MatchesPattern(maybe_relu, biased));
  EXPECT_TRUE(MatchesPattern(maybe_relu, CallOp("nn.relu", {biased})));
  EXPECT_FALSE(MatchesPattern(maybe_relu, dense));
  EXPECT_FALSE(MatchesPattern(maybe_relu, CallOp("nn.relu", {dense})));
}

TEST(PatternTest, AttributeConstraints) {
  Var x = MakeVar("x", F32({1, 4, 8, 8}));
  Constant w = ConstantOf({4, 1, 3, 3});
  Expr grouped = CallOp("nn.conv2d", {x, w}, {{"groups", int64_t{4}}});
  Expr plain = CallOp("nn.conv2d", {x, ConstantOf({4, 4, 3, 3})});
  Pattern groups_one = IsOp("nn.conv2d")(Wildcard(), IsConstant()).HasAttr({{"groups", int64_t{1}}});
  EXPECT_TRUE(MatchesPattern(groups_one, plain));
  EXPECT_FALSE(MatchesPattern(groups_one, grouped));
  EXPECT_TRUE(MatchesPattern(
      IsOp("nn.conv2d")(Wildcard(), Wildcard()).HasAttr({{"strides", std::vector<int64_t>{1, 1}}}), plain));
  EXPECT_FALSE(
      MatchesPattern(IsOp("nn.conv2d")(Wildcard(), Wildcard()).HasAttr({{"no_such_attr", int64_t{1}}}), plain));
  // A wildcard with an attribute constraint matches calls only.
  EXPECT_TRUE(MatchesPattern(Wildcard().HasAttr({{"groups", int64_t{4}}}), grouped));
  EXPECT_FALSE(MatchesPattern(Wildcard().HasAttr({}), x));
}

TEST(PatternTest, AttributeValuesCompareNumbersAcrossKinds) {
  Attrs actual{{"alpha", 0.5},
               {"groups", int64_t{1}},
               {"sizes", std::vector<int64_t>{2, 3}},
               {"mode", std::string("linear")},
               {"scales", std::vector<double>{1.0, 2.0}}};
  EXPECT_TRUE(AttrsSatisfy(actual, {{"groups", 1.0}}));
  EXPECT_TRUE(AttrsSatisfy(actual, {{"alpha", 0.5}, {"groups", int64_t{1}}}));
  EXPECT_FALSE(AttrsSatisfy(actual, {{"alpha", int64_t{1}}}));
  EXPECT_TRUE(AttrsSatisfy(actual, {{"sizes", std::vector<double>{2.0, 3.0}}}));
  EXPECT_TRUE(AttrsSatisfy(actual, {{"scales", std::vector<int64_t>{1, 2}}}));
  EXPECT_FALSE(AttrsSatisfy(actual, {{"sizes", int64_t{2}}}));
  EXPECT_TRUE(AttrsSatisfy(actual, {{"mode", std::string("linear")}}));
  EXPECT_FALSE(AttrsSatisfy(actual, {{"mode", std::string("nearest")}}));
  EXPECT_FALSE(AttrsSatisfy(actual, {{"missing", int64_t{0}}}));
  EXPECT_TRUE(AttrsSatisfy(actual, {}));
}

TEST(PatternTest, TypeShapeAndDTypeConstraintsNeedCheckedTypes) {
  Var x = MakeVar("x", F32({1, 3, 4, 4}));
  Var indices = MakeVar("i", TensorType(DType::kI64, {2}));
  Function function = MakeFunction({x, indices}, MakeTuple({CallOp("nn.relu", {x}), indices}));
  const auto& fields = As<TupleNode>(function->body)->fields;
  Pattern relu = IsOp("nn.relu")(Wildcard());
  EXPECT_FALSE(MatchesPattern(relu.HasDType(DType::kF32), fields[0])) << "no checked type before InferType";
  InferType(function);
  EXPECT_TRUE(MatchesPattern(relu.HasDType(DType::kF32), fields[0]));
  EXPECT_FALSE(MatchesPattern(relu.HasDType(DType::kI64), fields[0]));
  EXPECT_TRUE(MatchesPattern(relu.HasShape({1, 3, 4, 4}), fields[0]));
  EXPECT_FALSE(MatchesPattern(relu.HasShape({1, 3, 4}), fields[0]));
  EXPECT_TRUE(MatchesPattern(relu.HasType(F32({1, 3, 4, 4})), fields[0]));
  EXPECT_FALSE(MatchesPattern(relu.HasType(TensorType(DType::kF16, {1, 3, 4, 4})), fields[0]));
  EXPECT_TRUE(MatchesPattern(Wildcard().HasDType(DType::kI64), fields[1]));
  Pattern pair_type =
      IsTuple({Wildcard(), Wildcard()}).HasType(TupleType({F32({1, 3, 4, 4}), TensorType(DType::kI64, {2})}));
  EXPECT_TRUE(MatchesPattern(pair_type, function->body));
  EXPECT_FALSE(MatchesPattern(IsTuple({Wildcard(), Wildcard()}).HasDType(DType::kF32), function->body));
}

std::vector<std::string> OpNamesOf(const std::vector<const OpDef*>& ops) {
  std::vector<std::string> names;
  for (const OpDef* op : ops) names.push_back(op->name);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(PatternTest, OpsEveryMatchCallsLeavesOutWhatAnAlternativeOrOptionalMaySkip) {
  using Names = std::vector<std::string>;
  const Pattern conv = IsOp("nn.conv2d")(Wildcard(), IsConstant());
  EXPECT_EQ(OpNamesOf(OpsEveryMatchCalls(IsOp("nn.relu")(IsOp("add")(conv, IsConstant())))),
            (Names{"add", "nn.conv2d", "nn.relu"}));
  EXPECT_EQ(OpNamesOf(OpsEveryMatchCalls(IsOp("nn.relu")(conv) | IsOp("tanh")(conv))), (Names{"nn.conv2d"}));
  EXPECT_EQ(OpNamesOf(OpsEveryMatchCalls(IsOptional(IsOp("nn.relu")(conv)))), (Names{"nn.conv2d"}));
  EXPECT_EQ(OpNamesOf(OpsEveryMatchCalls(HasDType(IsTupleGetItem(IsTuple({conv, Wildcard()}), 0), DType::kF32))),
            (Names{"nn.conv2d"}));
  EXPECT_EQ(OpNamesOf(OpsEveryMatchCalls(Dominates(conv, IsOp("nn.relu")(Wildcard()), IsOp("add")(Wildcard(), Wildcard())))),
            (Names{"add", "nn.conv2d"}));
  EXPECT_TRUE(OpsEveryMatchCalls(Wildcard() | IsOp("tanh")(Wildcard())).empty());
}

TEST(PatternTest, MatchesNeedNoOpThatAnAlternativeOrOptionalSkips) {
  Var x = TensorVar("x");
  const Function tanh_only = MakeFunction({x}, CallOp("tanh", {x}));
  InferType(tanh_only);
  // The graph calls no relu: patterns that need one find nothing, those that may skip it match.
  EXPECT_TRUE(FindAllMatches(IsOp("nn.relu")(IsOp("tanh")(Wildcard())), tanh_only).empty());
  EXPECT_EQ(FindAllMatches(IsOp("nn.relu")(Wildcard()) | IsOp("tanh")(Wildcard()), tanh_only).size(), 1u);
  EXPECT_EQ(FindAllMatches(IsOptional(IsOp("nn.relu")(IsOp("tanh")(Wildcard()))), tanh_only).size(), 1u);
}

}  // namespace
}  // namespace collage
