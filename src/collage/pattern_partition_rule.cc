#include "collage/pattern_partition_rule.h"

#include "pattern/pattern_printer.h"

namespace collage {

DFPatternPartitionRule::DFPatternPartitionRule(std::string name, Pattern pattern, MatchPredicate predicate)
    : PartitionRule(std::move(name)), pattern_(std::move(pattern)), predicate_(std::move(predicate)) {
  Check(static_cast<bool>(pattern_), "DFPatternPartitionRule '" + this->name() + "' has no pattern");
}

std::vector<CandidatePartition> DFPatternPartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                      const PartitionSpec& spec) const {
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  std::vector<CandidatePartition> candidates;
  for (const PatternMatch& match : graph.FindAllMatches(pattern_, predicate_)) {
    if (match.inside.empty()) continue;
    IndexSet inside(graph.size());
    for (const Expr& expr : match.inside) inside.Add(graph.IndexOf(expr.get()));
    candidates.emplace_back(SubGraph(graph, std::move(inside), name()), origin);
  }
  return candidates;
}

std::string DFPatternPartitionRule::Describe() const {
  return "DFPatternPartitionRule(" + name() + ", " + PatternToString(pattern_) + (predicate_ ? ", with predicate)" : ")");
}

}  // namespace collage
