#include "pass/byoc/merge_composite.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pattern/pattern.h"

namespace collage {
namespace {

constexpr const char* kModel = R"(
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = add(%x, %y) : Tensor[(2, 3), f32]
  %1 = nn.relu(%0) : Tensor[(2, 3), f32]
  %2 = multiply(%1, %y) : Tensor[(2, 3), f32]
  nn.relu(%2)
}
)";

Pattern ReluOf(Pattern operand) { return IsOp("nn.relu")(std::move(operand)); }

SupportDeclaration Table(const std::string& backend, std::vector<BackendPattern> patterns) {
  SupportDeclaration declaration;
  declaration.backend = backend;
  declaration.patterns = std::move(patterns);
  return declaration;
}

// "label(op,op)" for each Composite call of the body in post-order, with the ops inside it.
std::vector<std::string> Composites(const Function& function) {
  std::vector<std::string> found;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call != nullptr ? As<FunctionNode>(call->callee) : nullptr;
    if (callee == nullptr) continue;
    std::string ops;
    for (const Expr& inner : PostOrder(call->callee)) {
      const auto* inner_call = As<CallNode>(inner);
      if (inner_call != nullptr && inner_call->op() != nullptr) ops += (ops.empty() ? "" : ",") + inner_call->op()->name;
    }
    found.push_back(callee->attrs.GetString(attr::kComposite) + "(" + ops + ")");
  }
  return found;
}

Function Merge(const std::string& text, const std::vector<SupportDeclaration>& backends) {
  const Function function = testing::ParseMainFunction(text);
  const Module merged = MergeComposite(backends)(Module(function));
  const std::vector<Value> args = RandomArguments(function, 3);
  EXPECT_TRUE(Evaluate(merged.main(), args).tensor().BitwiseEqual(Evaluate(function, args).tensor()));
  return merged.main();
}

TEST(MergeCompositeTest, LongerPatternsOfATableGoFirst) {
  const Function merged = Merge(kModel, {Table("lib", {{"lib.relu", ReluOf(Wildcard()), {}},
                                                       {"lib.add_relu", ReluOf(IsOp("add")(Wildcard(), Wildcard())), {}}})});
  EXPECT_EQ(Composites(merged), (std::vector<std::string>{"lib.add_relu(add,nn.relu)", "lib.relu(nn.relu)"}));
}

TEST(MergeCompositeTest, EarlierBackendsClaimNodesFirst) {
  const Function merged = Merge(kModel, {Table("first", {{"first.relu", ReluOf(Wildcard()), {}}}),
                                         Table("second", {{"second.add_relu", ReluOf(IsOp("add")(Wildcard(), Wildcard())), {}}})});
  EXPECT_EQ(Composites(merged), (std::vector<std::string>{"first.relu(nn.relu)", "first.relu(nn.relu)"}));
}

TEST(MergeCompositeTest, PredicateRejectsMatches) {
  const Pattern multiply_relu = ReluOf(IsOp("multiply")(Wildcard(), Wildcard()));
  const Pattern add_relu = ReluOf(IsOp("add")(Wildcard(), Wildcard()));
  const MatchPredicate only_multiply = [](const PatternMatch& match) {
    return As<CallNode>(As<CallNode>(match.root)->args[0])->op()->name == "multiply";
  };
  const Function merged = Merge(kModel, {Table("lib", {{"lib.any_relu", multiply_relu | add_relu, only_multiply}})});
  EXPECT_EQ(Composites(merged), (std::vector<std::string>{"lib.any_relu(multiply,nn.relu)"}));
}

TEST(MergeCompositeTest, MatchWhoseInnerNodeIsUsedOutsideIsSkipped) {
  constexpr const char* kShared = R"(
def @main(%x: Tensor[(2, 3), f32]) {
  %0 = add(%x, %x) : Tensor[(2, 3), f32]
  %1 = nn.relu(%0) : Tensor[(2, 3), f32]
  multiply(%1, %0)
}
)";
  const Function merged = Merge(kShared, {Table("lib", {{"lib.add_relu", ReluOf(IsOp("add")(Wildcard(), Wildcard())), {}}})});
  EXPECT_TRUE(Composites(merged).empty());
}

TEST(MergeCompositeTest, CompositeParametersAreTheInputsInPatternOrder) {
  constexpr const char* kWithConstant = R"(
def @main(%x: Tensor[(3), f32]) {
  %0 = add(%x, constant([0.5, -1.0, 2.0], Tensor[(3), f32])) : Tensor[(3), f32]
  nn.relu(%0)
}
)";
  const Function function = testing::ParseMainFunction(kWithConstant);
  const Expr body = MergeCompositeInBody(
      function->body, {Table("lib", {{"lib.bias_relu", ReluOf(IsOp("add")(Wildcard(), IsConstant())), {}}})});
  const auto* call = As<CallNode>(body);
  ASSERT_NE(call, nullptr);
  const auto* composite = As<FunctionNode>(call->callee);
  ASSERT_NE(composite, nullptr);
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(call->args[0], function->params[0]);
  EXPECT_EQ(call->args[1]->kind(), ExprKind::kConstant);
  EXPECT_EQ(composite->params.size(), 2u);
}

}  // namespace
}  // namespace collage
