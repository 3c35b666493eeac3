// CombinePartitionRule against its definition, computed by brute force on small random graphs:
// the least set of sub-graphs that holds the seeds and, with any two disjoint members of which
// one feeds the other, their union whenever a combiner rule fires on the pair and the union is
// valid. The rule's frontier rounds, its duplicate and invalid-union memos and its exit count
// before building must neither lose nor add a sub-graph.
#include <gtest/gtest.h>

#include <set>

#include "collage/combiner_rule.h"
#include "collage/partition_rule.h"
#include "collage_test_graphs.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using Rules = std::vector<std::shared_ptr<const CombinerRule>>;

std::set<std::string> InsidesOf(const std::vector<SubGraph>& sub_graphs) {
  std::set<std::string> insides;
  for (const SubGraph& sub_graph : sub_graphs) insides.insert(sub_graph.inside().ToString());
  return insides;
}

std::vector<SubGraph> ClosureByBruteForce(const DataflowGraph& graph, std::vector<SubGraph> members,
                                          const Rules& rules, const SubGraphConfig& config) {
  std::set<std::string> present = InsidesOf(members);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t up = 0; up < members.size(); ++up) {
      for (size_t down = 0; down < members.size(); ++down) {
        const SubGraph& upstream = members[up];
        const SubGraph& downstream = members[down];
        if (!upstream.inside().AreDisjoint(downstream.inside())) continue;
        if (!upstream.output().Intersects(downstream.inside())) continue;
        bool fires = false;
        for (const auto& rule : rules) fires = fires || rule->Fires(graph, upstream, downstream);
        if (!fires) continue;
        SubGraph joined = upstream.DisjointUnion(graph, downstream);
        if (!joined.IsValid(graph, config) || !present.insert(joined.inside().ToString()).second) continue;
        members.push_back(std::move(joined));
        grew = true;
      }
    }
  }
  return members;
}

// Compares the rule under `rule_config` with the closure under `closure_config` on 40 random
// graphs; returns how many graphs differ.
int CompareWithClosure(const Rules& rules, const SubGraphConfig& rule_config, const SubGraphConfig& closure_config,
                       const std::string& what, bool expect_equal) {
  auto seeds = std::make_shared<OpCallByKindPartitionRule>("ops");
  const CombinePartitionRule combine("combine", seeds, rules, rule_config);
  int differing = 0;
  int joining_graphs = 0;  // graphs whose closure holds more than the seeds
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const DataflowGraph graph = collage_testing::GraphOf(testing::MakeRandomDag(seed, 9));
    const PartitionSpec spec{"spec", "backend", seeds};
    std::vector<SubGraph> seed_graphs;
    for (const CandidatePartition& candidate : seeds->AllCandidates(graph, spec)) {
      seed_graphs.push_back(candidate.sub_graph());
    }
    std::vector<SubGraph> found;
    for (const CandidatePartition& candidate : combine.AllCandidates(graph, spec)) {
      found.push_back(candidate.sub_graph());
    }
    const std::set<std::string> expected = InsidesOf(ClosureByBruteForce(graph, seed_graphs, rules, closure_config));
    joining_graphs += expected.size() > seed_graphs.size() ? 1 : 0;
    differing += InsidesOf(found) != expected ? 1 : 0;
    if (!expect_equal) continue;
    EXPECT_EQ(InsidesOf(found), expected) << what << ", graph seed " << seed;
    EXPECT_EQ(found.size(), expected.size()) << what << ", graph seed " << seed << ": a sub-graph found twice";
  }
  EXPECT_GT(joining_graphs, 20) << what;
  return differing;
}

void ExpectClosure(const Rules& rules, const SubGraphConfig& config, const std::string& what) {
  EXPECT_EQ(CompareWithClosure(rules, config, config, what, true), 0);
}

TEST(CombineClosureTest, FuseOpsLikeRulesGiveTheirClosure) {
  ExpectClosure(DefaultCombinerRules(), SubGraphConfig{.max_exits = 1, .allow_taps = false, .max_depth = 6},
                "default rules, single exit");
  ExpectClosure(DefaultCombinerRules(), SubGraphConfig{.max_exits = 0, .allow_taps = true, .max_depth = 0},
                "default rules, unbounded");
}

TEST(CombineClosureTest, JoinAnythingGivesItsClosure) {
  ExpectClosure(Rules{std::make_shared<AllSimpleCombinerRule>()},
                SubGraphConfig{.max_exits = 1, .allow_taps = false, .max_depth = 4}, "join anything, depth 4");
}

// Negative control: a rule bounded tighter than the closure it is compared with differs.
TEST(CombineClosureTest, ARuleWithATighterDepthBoundIsCaught) {
  const Rules rules{std::make_shared<AllSimpleCombinerRule>()};
  const SubGraphConfig shallow{.max_exits = 1, .allow_taps = false, .max_depth = 2};
  const SubGraphConfig deep{.max_exits = 1, .allow_taps = false, .max_depth = 4};
  EXPECT_GT(CompareWithClosure(rules, shallow, deep, "depth 2 against 4", false), 20);
}

}  // namespace
}  // namespace collage
