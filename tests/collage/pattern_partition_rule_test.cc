#include "collage/pattern_partition_rule.h"

#include <gtest/gtest.h>

#include "collage_test_graphs.h"
#include "pattern/pattern_parser.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

PartitionSpec SpecOf(PartitionRulePtr rule) { return PartitionSpec{"spec", "backend", std::move(rule)}; }

std::vector<std::string> Insides(const std::vector<CandidatePartition>& candidates) {
  std::vector<std::string> insides;
  for (const CandidatePartition& candidate : candidates) insides.push_back(candidate.sub_graph().inside().ToString());
  return insides;
}

// x=0 weight=1 conv=2 bias=3 bias_add=4 relu=5.
TEST(DFPatternPartitionRuleTest, EveryMatchIsACandidateOverlappingOnesIncluded) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  auto rule = std::make_shared<DFPatternPartitionRule>(
      "lib.pairs", ParsePattern("nn.bias_add(nn.conv2d(*, const), const) | nn.relu(nn.bias_add(*, const))"));
  const std::vector<CandidatePartition> candidates = SpecOf(rule).AllCandidates(graph);
  EXPECT_EQ(Insides(candidates), std::vector<std::string>({"{2, 4}", "{4, 5}"}));
  EXPECT_EQ(candidates[0].rule_name(), "lib.pairs");
  EXPECT_EQ(candidates[0].sub_graph().label(), "lib.pairs");
  EXPECT_EQ(candidates[0].sub_graph().input().ToString(), "{0, 1, 3}");  // matched by * and const: outside
}

TEST(DFPatternPartitionRuleTest, PredicateFiltersMatches) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  const Pattern pattern = ParsePattern("nn.relu(*) | nn.bias_add(*, *)");
  auto only_relu = std::make_shared<DFPatternPartitionRule>("lib.relu", pattern, [](const PatternMatch& match) {
    return As<CallNode>(match.root)->op()->name == "nn.relu";
  });
  EXPECT_EQ(Insides(SpecOf(only_relu).AllCandidates(graph)), std::vector<std::string>({"{5}"}));
  EXPECT_EQ(only_relu->ToString(), "DFPatternPartitionRule(lib.relu, nn.relu(*) | nn.bias_add(*, *), with predicate)\n");
}

TEST(DFPatternPartitionRuleTest, CompositeDropsMatchesWithSeveralExits) {
  // relu(conv) and add(relu, conv): the conv+relu match has two exits.
  Var x = MakeVar("x", testing::F32({1, 2, 4, 4}));
  Var w = MakeVar("w", testing::F32({2, 2, 1, 1}));
  Expr conv = CallOp("nn.conv2d", {x, w});
  const DataflowGraph graph = GraphOf(MakeFunction({x, w}, CallOp("add", {CallOp("nn.relu", {conv}), conv})));
  auto match = std::make_shared<DFPatternPartitionRule>("lib.conv_relu", ParsePattern("nn.relu(nn.conv2d(*, *))"));
  EXPECT_EQ(SpecOf(match).AllCandidates(graph).size(), 1u);
  EXPECT_TRUE(SpecOf(std::make_shared<CompositePartitionRule>("lib.conv_relu", match)).AllCandidates(graph).empty());
}

}  // namespace
}  // namespace collage
