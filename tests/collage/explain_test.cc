#include "collage/explain.h"

#include <gtest/gtest.h>

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "collage_test_graphs.h"

namespace collage {
namespace {

using collage_testing::Declare;

// x -> relu -> tanh -> exp (nodes 1, 2, 3). Backend a runs relu only (0.5 ms); b runs tanh and
// exp, 1 ms per partition whatever its size, so b's best is one partition for both.
TEST(ExplainTest, TableShowsSharesAndTheBestAlternativeThatLost) {
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    return Cost::Seconds(candidate.backend() == "a" ? 0.5e-3 : 1e-3);
  });
  PartitionOptions options;
  options.explain = true;
  const PartitionResult result = Partition(
      collage_testing::MakeUnaryChain(),
      {MakeOpPredicateSpec(Declare("a", {"nn.relu"})), MakeOpPredicateSpec(Declare("b", {"tanh", "exp"}))}, estimator,
      options);
  ASSERT_TRUE(result.explanation.has_value());
  const Explanation& explanation = *result.explanation;
  ASSERT_EQ(explanation.partitions.size(), 2u);
  EXPECT_FALSE(explanation.partitions[0].alternative.has_value());
  ASSERT_TRUE(explanation.partitions[1].alternative.has_value());
  EXPECT_EQ(explanation.partitions[1].alternative->candidates.size(), 2u);
  EXPECT_EQ(explanation.ToString(),
            "#  backend  ops         estimated ms  share   best alternative (estimated ms, loss)\n"
            "1  a        1 nn.relu   0.5           33.3%   only choice\n"
            "2  b        2 tanh+exp  1             66.7%   b(tanh) + b(exp): 2 ms (+1 ms, +100.0%)\n"
            "   total                1.5           100.0%\n");
}

TEST(ExplainTest, HostNodesAreSummedAndAlternativesMayComeFromOtherBackends) {
  // conv2d -> bias_add -> relu with constants: lib runs everything in one partition (3 ms),
  // tvm runs single ops (1.5 ms each); the host keeps the constants for free.
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    if (candidate.backend() == "host") return Cost::Zero();
    if (candidate.backend() == "tvm") {
      return candidate.sub_graph().inside().Count() == 1 ? Cost::Seconds(1.5e-3) : Cost::Invalid();
    }
    return candidate.sub_graph().inside().Count() == 3 ? Cost::Seconds(3e-3) : Cost::Invalid();
  });
  const DataflowGraph graph = collage_testing::GraphOf(testing::MakeConvBiasRelu());
  std::vector<CandidatePartition> candidates;
  for (const PartitionSpec& spec : {MakeOpPredicateSpec(Declare("lib", {"nn.conv2d", "nn.bias_add", "nn.relu"})),
                                    MakeCodeGeneratorSpec("tvm"), MakeHostSpec()}) {
    for (CandidatePartition& candidate : spec.AllCandidates(graph)) candidates.push_back(std::move(candidate));
  }
  const SearchResult result = SearchOptimalPlacement(graph, candidates, estimator, {"lib", "tvm", "host"});
  const Explanation explanation = ExplainPlacement(graph, candidates, result, estimator);
  EXPECT_EQ(explanation.host_nodes, 2u);
  EXPECT_EQ(explanation.ToString(),
            "#  backend  ops                              estimated ms  share   best alternative (estimated ms, loss)\n"
            "1  lib      3 nn.conv2d+nn.bias_add+nn.relu  3             100.0%  "
            "tvm(nn.conv2d) + tvm(nn.bias_add) + tvm(nn.relu): 4.5 ms (+1.5 ms, +50.0%)\n"
            "-  host     2 constants/tuples/projections   0             0.0%\n"
            "   total                                     3             100.0%\n");
}

// x [1, 3, 4, 4] -> relu -> tanh: a runs relu in plain (1 ms) or channel-blocked (0.5 ms)
// boundaries, b runs tanh (1 ms). The table names the chosen layout, and so does the
// alternative that lost.
TEST(ExplainTest, PartitionsAndAlternativesNameTheirBoundaryLayout) {
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    if (candidate.backend() == "a") return Cost::Seconds(candidate.boundary_layouts().IsPlain() ? 1e-3 : 0.5e-3);
    return Cost::Seconds(1e-3);
  });
  const Var x = MakeVar("x", testing::F32({1, 3, 4, 4}));
  const Function function = MakeFunction({x}, CallOp("tanh", {CallOp("nn.relu", {x})}));
  SupportDeclaration a = Declare("a", {"nn.relu"});
  a.boundary_layouts = {Layout::kPlain, Layout::kChannelBlocked8};
  SupportDeclaration b = Declare("b", {"tanh"});
  PartitionOptions options;
  options.explain = true;
  const PartitionResult result =
      Partition(function, {MakeOpPredicateSpec(a), MakeOpPredicateSpec(b)}, estimator, options);
  ASSERT_TRUE(result.explanation.has_value());
  EXPECT_EQ(result.explanation->ToString(),
            "#  backend     ops        estimated ms  share   best alternative (estimated ms, loss)\n"
            "1  a [nchw8c]  1 nn.relu  0.5           33.3%   a(nn.relu): 1 ms (+0.5 ms, +100.0%)\n"
            "2  b           1 tanh     1             66.7%   only choice\n"
            "   total                  1.5           100.0%\n");
}

TEST(ExplainTest, LabelsAndMillisecondsAreFormattedCompactly) {
  EXPECT_EQ(ShortLabel("nn.dense+add+nn.relu", 10), "nn.dens...");
  EXPECT_EQ(ShortLabel("add", 10), "add");
  EXPECT_EQ(FormatMilliseconds(Cost::Seconds(1.234567e-5)), "0.01235");
  EXPECT_EQ(FormatMilliseconds(Cost::Invalid()), "invalid");
}

}  // namespace
}  // namespace collage
