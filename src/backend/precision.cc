#include "backend/precision.h"

#include "support/error.h"

namespace collage {

DType PrecisionOf(const Attrs& attrs) {
  if (!attrs.Has(attr::kPrecision)) return DType::kF32;
  const std::string& name = attrs.GetString(attr::kPrecision);
  const std::optional<DType> precision = ParseDType(name);
  if (!precision) throw Error("unknown " + std::string(attr::kPrecision) + " '" + name + "' (expected an element type)");
  return *precision;
}

std::vector<ActivationRange> ParameterRangesOf(const Function& function) {
  const std::string name = attr::kActivationRanges;
  if (!function->attrs.Has(name)) {
    throw Error("a " + std::string(DTypeName(PrecisionOf(function->attrs))) + " partition without " + name);
  }
  const std::vector<double>& bounds = function->attrs.GetFloats(name);
  if (bounds.size() != 2 * function->params.size()) {
    throw Error(name + " holds " + std::to_string(bounds.size()) + " values for " +
                std::to_string(function->params.size()) + " parameters (expected a min and a max each)");
  }
  std::vector<ActivationRange> ranges;
  for (size_t i = 0; i < bounds.size(); i += 2) {
    if (!(bounds[i] <= bounds[i + 1])) throw Error(name + ": parameter " + std::to_string(i / 2) + " has min > max");
    ranges.push_back({static_cast<float>(bounds[i]), static_cast<float>(bounds[i + 1])});
  }
  return ranges;
}

Function WithRangesBySign(const Function& function) {
  if (!function->attrs.Has(attr::kActivationRanges)) return function;
  std::vector<ActivationRange> ranges = ParameterRangesOf(function);
  for (ActivationRange& range : ranges) range = {range.min >= 0 ? 0.0f : -1.0f, 1.0f};
  return WithPrecision(function, PrecisionOf(function->attrs), ranges);
}

Function WithPrecision(const Function& function, DType precision, const std::vector<ActivationRange>& parameter_ranges) {
  Attrs attrs = function->attrs;
  attrs.Erase(attr::kPrecision);
  attrs.Erase(attr::kActivationRanges);
  if (precision != DType::kF32) {
    Check(parameter_ranges.size() == function->params.size(), "WithPrecision: one range per parameter");
    std::vector<double> bounds;
    for (const ActivationRange& range : parameter_ranges) {
      bounds.push_back(range.min);
      bounds.push_back(range.max);
    }
    attrs.Set(attr::kPrecision, std::string(DTypeName(precision)));
    attrs.Set(attr::kActivationRanges, std::move(bounds));
  }
  const Function result = MakeFunction(function->params, function->body, std::move(attrs));
  if (function->checked_type()) result->set_checked_type(function->checked_type());
  return result;
}

}  // namespace collage
