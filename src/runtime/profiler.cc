#include "runtime/profiler.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "support/error.h"

namespace collage {
namespace {

std::string Padded(const std::string& text, size_t width, bool right_aligned) {
  if (text.size() >= width) return text;
  const std::string padding(width - text.size(), ' ');
  return right_aligned ? padding + text : text + padding;
}

std::string Fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

}  // namespace

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  if (values.size() % 2 == 1) return values[middle];
  return (values[middle] + *std::max_element(values.begin(), values.begin() + middle)) / 2.0;
}

size_t Profiler::Add(ProfiledCall call) {
  calls_.push_back(std::move(call));
  samples_.emplace_back();
  return calls_.size() - 1;
}

void Profiler::Record(size_t index, double milliseconds) {
  Check(index < samples_.size(), "Profiler::Record: no call " + std::to_string(index));
  samples_[index].push_back(milliseconds);
}

void Profiler::ClearSamples() {
  for (std::vector<double>& samples : samples_) samples.clear();
}

std::vector<ProfileRow> Profiler::Rows() const {
  std::vector<ProfileRow> rows;
  double total_ms = 0.0;
  for (size_t i = 0; i < calls_.size(); ++i) {
    ProfileRow row;
    row.call = calls_[i];
    row.runs = samples_[i].size();
    if (row.runs > 0) {
      row.mean_ms = std::accumulate(samples_[i].begin(), samples_[i].end(), 0.0) / static_cast<double>(row.runs);
      row.median_ms = Median(samples_[i]);
    }
    total_ms += row.mean_ms;
    rows.push_back(std::move(row));
  }
  for (ProfileRow& row : rows) row.share = total_ms > 0.0 ? row.mean_ms / total_ms : 0.0;
  return rows;
}

std::string Profiler::Table() const {
  const std::vector<ProfileRow> rows = Rows();
  std::vector<std::vector<std::string>> cells = {{"partition", "backend", "ops", "runs", "mean ms", "median ms", "share"}};
  double total_mean = 0.0;
  double total_median = 0.0;
  size_t total_ops = 0;
  for (const ProfileRow& row : rows) {
    cells.push_back({row.call.global_symbol, row.call.backend, std::to_string(row.call.ops), std::to_string(row.runs),
                     Fixed(row.mean_ms, 3), Fixed(row.median_ms, 3), Fixed(100.0 * row.share, 1) + "%"});
    total_mean += row.mean_ms;
    total_median += row.median_ms;
    total_ops += row.call.ops;
  }
  cells.push_back({"total", "", std::to_string(total_ops), "", Fixed(total_mean, 3), Fixed(total_median, 3),
                   rows.empty() ? "" : "100.0%"});
  std::vector<size_t> widths(cells[0].size(), 0);
  for (const auto& line : cells) {
    for (size_t column = 0; column < line.size(); ++column) widths[column] = std::max(widths[column], line[column].size());
  }
  std::string table;
  for (const auto& line : cells) {
    std::string text;
    for (size_t column = 0; column < line.size(); ++column) {
      if (column > 0) text += "  ";
      text += Padded(line[column], widths[column], /*right_aligned=*/column >= 2);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    table += text + "\n";
  }
  return table;
}

}  // namespace collage
