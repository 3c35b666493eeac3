// DFPatternPartitionRule: a base partition rule bringing a pattern (and an optional predicate
// on the match) into Collage. Every match becomes a
// candidate, overlapping ones included; its inside nodes are the match's inside nodes (calls,
// tuples and projections the pattern's structure covers); what wildcards, constants and
// variables matched stay outside, as inputs. Matches with no inside node are dropped.
#pragma once

#include "collage/partition_rule.h"
#include "pattern/pattern_matcher.h"

namespace collage {

class DFPatternPartitionRule final : public PartitionRule {
 public:
  DFPatternPartitionRule(std::string name, Pattern pattern, MatchPredicate predicate = {});
  std::vector<CandidatePartition> AllCandidates(const DataflowGraph& graph, const PartitionSpec& spec) const override;

 protected:
  std::string Describe() const override;

 private:
  Pattern pattern_;
  MatchPredicate predicate_;
};

}  // namespace collage
