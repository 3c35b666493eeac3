// Explainability of a placement: which partitions the search chose, what each
// costs and its share of the total, and for each the best alternative that lost.
//
// The best alternative of a chosen partition is the cheapest way to cover exactly the same
// nodes without that candidate: a CoverSearch over the other candidates (of any spec) that
// lie inside the region, costed by the estimator (whose cache makes this cheap). It leaves
// the transition penalty out, so "loss" compares the region's own costs. A region no other
// combination covers has no alternative ("only choice").
//
// Host candidates (values the host keeps: constants, tuples, projections) are not
// partitions; they are summed into one line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collage/search.h"

namespace collage {

struct ExplainedAlternative {
  std::vector<CandidatePartition> candidates;  // in path order
  Cost cost = Cost::Zero();
};

struct ExplainedPartition {
  CandidatePartition candidate;
  Cost cost = Cost::Zero();
  std::optional<ExplainedAlternative> alternative;
};

struct Explanation {
  std::vector<ExplainedPartition> partitions;  // the search's order (by first node)
  size_t host_nodes = 0;
  Cost host_cost = Cost::Zero();
  Cost total = Cost::Zero();  // the search's total, transition penalties included

  // The table: one row per partition (number, backend, ops, estimated ms, share of the
  // total, best alternative with its cost and loss), then the host line and the total.
  // Deterministic: depends only on the placement and the costs.
  std::string ToString() const;
  // The explained partition of `candidate` (same spec and sub-graph); nullptr when none.
  const ExplainedPartition* Find(const CandidatePartition& candidate) const;
};

// `candidates` are all candidates of the search, `result` its answer.
Explanation ExplainPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                             const SearchResult& result, CostEstimator& estimator);

// "onednn(nn.conv2d) + native(nn.relu)": each candidate's spec and label cut to `label_width`.
std::string DescribeCandidates(const std::vector<CandidatePartition>& candidates, size_t label_width);
// "nn.dense+add" cut to at most `width` characters ("..." at the end when cut).
std::string ShortLabel(const std::string& label, size_t width);
// Seconds as milliseconds with 4 significant digits: "0.01234".
std::string FormatMilliseconds(const Cost& cost);

}  // namespace collage
