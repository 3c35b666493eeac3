#include "collage/explain.h"

#include <cmath>
#include <cstdio>

#include "collage/outline_partitions.h"
#include "support/partition_layouts.h"

namespace collage {
namespace {

constexpr size_t kOpsWidth = 40;
constexpr size_t kAlternativeWidth = 60;

std::string Percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
  return text;
}

std::string DescribeAlternative(const ExplainedPartition& partition) {
  if (!partition.alternative) return "only choice";
  const ExplainedAlternative& alternative = *partition.alternative;
  const std::string parts = DescribeCandidates(alternative.candidates, kOpsWidth);
  const double loss = alternative.cost.seconds() - partition.cost.seconds();
  const std::string sign = loss < 0 ? "-" : "+";
  std::string text = ShortLabel(parts, kAlternativeWidth) + ": " + FormatMilliseconds(alternative.cost) + " ms (" +
                     sign + FormatMilliseconds(Cost::Seconds(std::abs(loss))) + " ms";
  if (partition.cost.seconds() > 0) text += ", " + sign + Percent(std::abs(loss) / partition.cost.seconds());
  return text + ")";
}

// Rows of cells printed with each column padded to its widest cell; the last column unpadded.
std::string FormatTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t column = 0; column < row.size(); ++column) widths[column] = std::max(widths[column], row[column].size());
  }
  std::string text;
  for (const auto& row : rows) {
    std::string line;
    for (size_t column = 0; column < row.size(); ++column) {
      std::string cell = row[column];
      if (column + 1 < row.size()) cell.resize(widths[column] + 2, ' ');
      line += cell;
    }
    line.erase(line.find_last_not_of(' ') + 1);
    text += line + "\n";
  }
  return text;
}

bool SameCandidate(const CandidatePartition& lhs, const CandidatePartition& rhs) {
  return lhs.spec_name() == rhs.spec_name() && lhs.sub_graph() == rhs.sub_graph();
}

}  // namespace

std::string DescribeCandidates(const std::vector<CandidatePartition>& candidates, size_t label_width) {
  std::string text;
  for (const CandidatePartition& candidate : candidates) {
    text += (text.empty() ? "" : " + ") +
            WithLayoutsSuffix(candidate.spec_name(), candidate.boundary_layouts(), candidate.precision()) + "(" +
            ShortLabel(candidate.sub_graph().label(), label_width) + ")";
  }
  return text;
}

std::string ShortLabel(const std::string& label, size_t width) {
  if (label.size() <= width || width < 3) return label;
  return label.substr(0, width - 3) + "...";
}

std::string FormatMilliseconds(const Cost& cost) {
  if (!cost.IsKnown()) return cost.ToString();
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", cost.seconds() * 1e3);
  return text;
}

Explanation ExplainPlacement(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates,
                             const SearchResult& result, CostEstimator& estimator) {
  Explanation explanation;
  explanation.total = result.total;
  const CoverSearch cover_search(graph, candidates, estimator);
  for (const CandidatePartition& chosen : result.chosen) {
    const Cost cost = chosen.EstimatedCost(graph, estimator);
    if (PrimitiveAttrs(chosen.sub_graph()) == nullptr) {
      explanation.host_nodes += chosen.sub_graph().inside().Count();
      explanation.host_cost += cost;
      continue;
    }
    ExplainedPartition partition{chosen, cost, std::nullopt};
    std::optional<SearchResult> cover = cover_search.Cheapest(
        chosen.sub_graph().inside(), [&](size_t c) { return !SameCandidate(candidates[c], chosen); });
    if (cover) partition.alternative = ExplainedAlternative{std::move(cover->chosen), cover->total};
    explanation.partitions.push_back(std::move(partition));
  }
  return explanation;
}

const ExplainedPartition* Explanation::Find(const CandidatePartition& candidate) const {
  for (const ExplainedPartition& partition : partitions) {
    if (SameCandidate(partition.candidate, candidate)) return &partition;
  }
  return nullptr;
}

std::string Explanation::ToString() const {
  std::vector<std::vector<std::string>> rows = {
      {"#", "backend", "ops", "estimated ms", "share", "best alternative (estimated ms, loss)"}};
  const double total_seconds = total.IsKnown() && total.seconds() > 0 ? total.seconds() : 0;
  auto share = [&](const Cost& cost) { return total_seconds > 0 ? Percent(cost.seconds() / total_seconds) : "-"; };
  for (size_t p = 0; p < partitions.size(); ++p) {
    const ExplainedPartition& partition = partitions[p];
    const std::string ops = std::to_string(partition.candidate.sub_graph().inside().Count()) + " " +
                            ShortLabel(partition.candidate.sub_graph().label(), kOpsWidth);
    rows.push_back({std::to_string(p + 1),
                    WithLayoutsSuffix(partition.candidate.backend(), partition.candidate.boundary_layouts(),
                                      partition.candidate.precision()), ops, FormatMilliseconds(partition.cost),
                    share(partition.cost), DescribeAlternative(partition)});
  }
  if (host_nodes > 0) {
    rows.push_back({"-", "host", std::to_string(host_nodes) + " constants/tuples/projections",
                    FormatMilliseconds(host_cost), share(host_cost), ""});
  }
  rows.push_back({"", "total", "", FormatMilliseconds(total), total_seconds > 0 ? "100.0%" : "-", ""});
  return FormatTable(rows);
}

}  // namespace collage
