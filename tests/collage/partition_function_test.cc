// ExtractPartitionFunction: the function measured for a candidate is the one phase 4 outlines.
#include "collage/partition_function.h"

#include <gtest/gtest.h>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"
#include "interpreter/interpreter.h"
#include "ir/structural_equal.h"
#include "ir/visitor.h"
#include "pattern/pattern_parser.h"
#include "runtime/compare.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

SupportDeclaration ConvTable() {
  SupportDeclaration declaration;
  declaration.backend = "lib";
  declaration.patterns = {{"lib.conv2d_bias_relu", ParsePattern("nn.relu(nn.bias_add(nn.conv2d(*, *), *))"), {}}};
  return declaration;
}

Function CompositeCallee(const Function& function) {
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    if (const Function callee = call ? Downcast<FunctionNode>(call->callee) : nullptr) return callee;
  }
  return nullptr;
}

TEST(PartitionFunctionTest, PatternCandidateIsAPrimitiveCallingItsCompositeWithWeightsInside) {
  const Function original = testing::MakeConvBiasRelu();
  const DataflowGraph graph = GraphOf(original);
  const std::vector<CandidatePartition> candidates = MakePartitionSpec(ConvTable()).AllCandidates(graph);
  ASSERT_EQ(candidates.size(), 1u);
  const Function partition = ExtractPartitionFunction(graph, candidates[0]);
  ASSERT_NE(partition, nullptr);
  EXPECT_EQ(partition->attrs.GetInt(attr::kPrimitive), 1);
  EXPECT_EQ(partition->attrs.GetString(attr::kCompiler), "lib");
  // The weight and the bias are constants inside; only the activation is a parameter.
  ASSERT_EQ(partition->params.size(), 1u);
  const Function composite = CompositeCallee(partition);
  ASSERT_NE(composite, nullptr);
  EXPECT_EQ(composite->attrs.GetString(attr::kComposite), "lib.conv2d_bias_relu");
  // It computes what the candidate's nodes compute.
  const std::vector<Value> arguments = RandomArguments(original, 7);
  EXPECT_TRUE(CompareValues(Evaluate(partition, arguments), Evaluate(original, arguments)).ok());
}

TEST(PartitionFunctionTest, WrappedAndPlainCandidatesOfTheSameNodesDiffer) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  SupportDeclaration ops = collage_testing::Declare("lib", {"nn.conv2d", "nn.bias_add", "nn.relu"});
  ops.patterns = ConvTable().patterns;
  const std::vector<CandidatePartition> candidates = MakePartitionSpec(ops).AllCandidates(graph);
  std::vector<Function> whole;  // the candidates covering all three ops
  for (const CandidatePartition& candidate : candidates) {
    if (candidate.sub_graph().inside().Count() == 3) whole.push_back(ExtractPartitionFunction(graph, candidate));
  }
  ASSERT_GE(whole.size(), 2u);
  EXPECT_FALSE(StructuralEqual(whole[0], whole[1]));
  EXPECT_NE(StructuralHash(whole[0]), StructuralHash(whole[1]));
}

TEST(PartitionFunctionTest, HostCandidatesHaveNoFunction) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeDiamond());
  for (const CandidatePartition& candidate : MakeHostSpec().AllCandidates(graph)) {
    EXPECT_EQ(ExtractPartitionFunction(graph, candidate), nullptr) << candidate.ToString();
  }
}

}  // namespace
}  // namespace collage
