#include "collage/partition_rule.h"

#include <gtest/gtest.h>

#include "collage/partition_spec.h"
#include "collage_test_graphs.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

std::vector<std::string> Insides(const std::vector<CandidatePartition>& candidates) {
  std::vector<std::string> insides;
  for (const CandidatePartition& candidate : candidates) insides.push_back(candidate.sub_graph().inside().ToString());
  return insides;
}

PartitionSpec SpecOf(PartitionRulePtr rule) { return PartitionSpec{"spec", "backend", std::move(rule)}; }

TEST(PartitionRuleTest, OpPredicateAndOpCallByKind) {
  const DataflowGraph graph = GraphOf(testing::MakeChain(4));  // relu, add, relu, add
  auto relu_only = std::make_shared<OpPredicatePartitionRule>(
      "relu", [](const CallNode& call) { return call.op()->name == "nn.relu"; });
  EXPECT_EQ(SpecOf(relu_only).AllCandidates(graph).size(), 2u);
  auto by_kind = std::make_shared<OpCallByKindPartitionRule>("ops");
  const std::vector<CandidatePartition> candidates = SpecOf(by_kind).AllCandidates(graph);
  EXPECT_EQ(candidates.size(), 4u);
  EXPECT_EQ(candidates[0].spec_name(), "spec");
  EXPECT_EQ(candidates[0].backend(), "backend");
  EXPECT_EQ(candidates[0].rule_name(), "ops");
}

TEST(PartitionRuleTest, CombineJoinAnythingKeepsEverySegment) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());
  auto combine = std::make_shared<CombinePartitionRule>(
      "combine", std::make_shared<OpCallByKindPartitionRule>("ops"),
      std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<AllSimpleCombinerRule>()}, SubGraphConfig{});
  EXPECT_EQ(Insides(SpecOf(combine).AllCandidates(graph)),
            std::vector<std::string>({"{1}", "{1, 2}", "{1, 2, 3}", "{2}", "{2, 3}", "{3}"}));
}

TEST(PartitionRuleTest, CombineByKindMimicsFuseOps) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());  // x w conv b bias_add relu
  auto combine = std::make_shared<CombinePartitionRule>("combine", std::make_shared<OpCallByKindPartitionRule>("ops"),
                                                        DefaultCombinerRules(), SubGraphConfig{});
  EXPECT_EQ(Insides(SpecOf(combine).AllCandidates(graph)),
            std::vector<std::string>({"{2}", "{2, 4}", "{2, 4, 5}", "{4}", "{4, 5}", "{5}"}));
  // Elementwise into an OutEWiseFusable op is not a FuseOps join.
  Var x = MakeVar("x", testing::F32({4, 8}));
  Var w = MakeVar("w", testing::F32({8, 8}));
  const DataflowGraph reversed = GraphOf(MakeFunction({x, w}, CallOp("nn.dense", {CallOp("nn.relu", {x}), w})));
  EXPECT_EQ(SpecOf(combine).AllCandidates(reversed).size(), 2u);
}

TEST(PartitionRuleTest, ConstantCombinerPullsConstantsIntoConsumers) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  auto sources = std::make_shared<UnionPartitionRule>(
      "sources", std::vector<PartitionRulePtr>{std::make_shared<OpCallByKindPartitionRule>("ops"),
                                               std::make_shared<HostPartitionRule>("host")});
  auto combine = std::make_shared<CombinePartitionRule>(
      "combine", sources, std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<ConstantCombinerRule>()},
      SubGraphConfig{});
  EXPECT_EQ(Insides(SpecOf(combine).AllCandidates(graph)),
            std::vector<std::string>({"{1}", "{1, 2}", "{2}", "{3}", "{3, 4}", "{4}", "{5}"}));
}

TEST(PartitionRuleTest, TupleRulesJoinFieldsAndProjections) {
  Var x = MakeVar("x", testing::F32({2, 3}));
  Expr tuple = MakeTuple({CallOp("nn.relu", {x}), CallOp("tanh", {x})});
  const DataflowGraph graph = GraphOf(MakeFunction({x}, CallOp("exp", {MakeTupleGetItem(tuple, 0)})));
  // x=0 relu=1 tanh=2 tuple=3 proj=4 exp=5
  auto sources = std::make_shared<UnionPartitionRule>(
      "sources", std::vector<PartitionRulePtr>{std::make_shared<OpCallByKindPartitionRule>("ops"),
                                               std::make_shared<HostPartitionRule>("host")});
  auto tuple_args = std::make_shared<CombinePartitionRule>(
      "combine", sources, std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<TupleArgCombinerRule>()},
      SubGraphConfig{});
  // Fields into the tuple: {1,3}, {2,3}, {1,2,3}; the projection does not join the tuple.
  EXPECT_EQ(SpecOf(tuple_args).AllCandidates(graph).size(), 5u + 3u);
  auto projections = std::make_shared<CombinePartitionRule>(
      "combine", sources, std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<TupleProjCombinerRule>()},
      SubGraphConfig{});
  EXPECT_EQ(Insides(SpecOf(projections).AllCandidates(graph)),
            std::vector<std::string>({"{1}", "{2}", "{3}", "{3, 4}", "{4}", "{5}"}));
}

TEST(PartitionRuleTest, CompositePrimitiveUnionAndOnlyValid) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeDiamond());
  auto ops = std::make_shared<OpCallByKindPartitionRule>("ops");
  auto composite = std::make_shared<CompositePartitionRule>("lib.op", ops);
  const std::vector<CandidatePartition> composites = SpecOf(composite).AllCandidates(graph);
  ASSERT_EQ(composites.size(), 3u);
  EXPECT_EQ(composites[0].sub_graph().nested()[0].attrs->GetString(attr::kComposite), "lib.op");
  auto primitive = std::make_shared<PrimitivePartitionRule>("prim", composite);
  const std::vector<CandidatePartition> primitives = SpecOf(primitive).AllCandidates(graph);
  ASSERT_EQ(primitives.size(), 3u);
  const NestedSubGraph& outer = primitives[0].sub_graph().nested()[0];
  EXPECT_EQ(outer.attrs->GetString(attr::kCompiler), "backend");
  EXPECT_EQ(outer.sub_graph->nested()[0].attrs->GetString(attr::kComposite), "lib.op");
  EXPECT_EQ(SpecOf(std::make_shared<UnionPartitionRule>("u", std::vector<PartitionRulePtr>{ops, ops}))
                .AllCandidates(graph)
                .size(),
            3u);
  auto combine = std::make_shared<CombinePartitionRule>(
      "combine", ops, std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<AllSimpleCombinerRule>()},
      SubGraphConfig{});
  EXPECT_EQ(Insides(SpecOf(combine).AllCandidates(graph)),
            std::vector<std::string>({"{1}", "{1, 3}", "{1, 2, 3}", "{2}", "{2, 3}", "{3}"}));
  auto shallow = std::make_shared<OnlyValidPartitionRule>("valid", combine, SubGraphConfig{.max_depth = 1});
  EXPECT_EQ(SpecOf(shallow).AllCandidates(graph).size(), 3u);
}

// Returns the sub-graphs with the given inside sets, in the given order (repeats included).
class ListedPartitionRule final : public PartitionRule {
 public:
  explicit ListedPartitionRule(std::vector<std::vector<size_t>> insides)
      : PartitionRule("listed"), insides_(std::move(insides)) {}
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override {
    std::vector<CandidatePartition> candidates;
    for (const std::vector<size_t>& inside : insides_) {
      candidates.emplace_back(SubGraph(graph, IndexSet(graph.size(), inside)), Origin(spec, name()));
    }
    return candidates;
  }

 protected:
  std::string Describe() const override { return "ListedPartitionRule"; }

 private:
  std::vector<std::vector<size_t>> insides_;
};

TEST(PartitionRuleTest, UnionOfOneRuleStillSortsAndRemovesRepeats) {
  const DataflowGraph graph = GraphOf(collage_testing::MakeUnaryChain());  // x relu tanh exp
  auto union_of = [&](std::vector<std::vector<size_t>> insides) {
    return Insides(SpecOf(std::make_shared<UnionPartitionRule>(
                              "u", std::vector<PartitionRulePtr>{std::make_shared<ListedPartitionRule>(insides)}))
                       .AllCandidates(graph));
  };
  // Already sorted and distinct: kept as it is.
  EXPECT_EQ(union_of({{1}, {1, 2}, {2}, {3}}), std::vector<std::string>({"{1}", "{1, 2}", "{2}", "{3}"}));
  // Out of order by first node: stably sorted.
  EXPECT_EQ(union_of({{2, 3}, {1}, {3}, {1, 2}}), std::vector<std::string>({"{1}", "{1, 2}", "{2, 3}", "{3}"}));
  // Repeats, next to each other or not: the first kept.
  EXPECT_EQ(union_of({{1}, {1, 2}, {1}, {2}, {2}}), std::vector<std::string>({"{1}", "{1, 2}", "{2}"}));
  // A run of equal first nodes longer than the pairwise check takes the set, and loses its repeats.
  std::vector<std::vector<size_t>> long_run(12, std::vector<size_t>{1});
  EXPECT_EQ(union_of(long_run), std::vector<std::string>({"{1}"}));
}

TEST(PartitionRuleTest, HostRuleAndTreePrinting) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  EXPECT_EQ(MakeHostSpec().AllCandidates(graph).size(), 2u);  // the two constants
  const PartitionSpec spec = MakeOpPredicateSpec(collage_testing::Declare("dnnl", {"nn.relu"}));
  EXPECT_EQ(spec.ToString(),
            "PartitionSpec(dnnl, backend=dnnl)\n"
            "  PrimitivePartitionRule(dnnl)\n"
            "    OnlyValidPartitionRule(dnnl.valid, max_exits=1 allow_taps=false max_depth=6)\n"
            "      CombinePartitionRule(dnnl.combine, max_exits=1 allow_taps=false max_depth=6, "
            "[AllSimpleCombinerRule(join anything)])\n"
            "        OpPredicatePartitionRule(dnnl.ops)\n");
}

}  // namespace
}  // namespace collage
