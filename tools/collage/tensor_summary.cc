#include "tensor_summary.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace collage::cli {

std::string SummarizeTensor(const api::Tensor& tensor) {
  const std::vector<double> values = tensor.ValuesAsDouble();
  const int64_t count = static_cast<int64_t>(values.size());
  if (count == 0) return "(no elements)";
  double minimum = std::numeric_limits<double>::infinity();
  double maximum = -std::numeric_limits<double>::infinity();
  double sum = 0.0;
  int64_t finite = 0;
  int64_t nans = 0;
  int64_t infinities = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double value = values[static_cast<size_t>(i)];
    if (std::isnan(value)) {
      ++nans;
      continue;
    }
    if (std::isinf(value)) ++infinities;
    minimum = std::min(minimum, value);
    maximum = std::max(maximum, value);
    if (std::isfinite(value)) {
      sum += value;
      ++finite;
    }
  }
  std::ostringstream out;
  out.precision(6);
  if (nans < count) out << "min=" << minimum << " max=" << maximum << " ";
  if (finite > 0) out << "mean=" << sum / static_cast<double>(finite);
  if (nans > 0) out << " nan=" << nans;
  if (infinities > 0) out << " inf=" << infinities;
  std::string summary = out.str();
  if (!summary.empty() && summary.front() == ' ') summary.erase(0, 1);
  if (!summary.empty() && summary.back() == ' ') summary.pop_back();
  return summary;
}

}  // namespace collage::cli
