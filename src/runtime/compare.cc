#include "runtime/compare.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "support/error.h"
#include "support/shape.h"

namespace collage {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// "[0, 1, 1]": the row-major multi-index of a flat element index.
std::string IndexToString(int64_t flat_index, const Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t axis = shape.size(); axis-- > 0;) {
    index[axis] = flat_index % shape[axis];
    flat_index /= shape[axis];
  }
  std::string text = "[";
  for (size_t axis = 0; axis < index.size(); ++axis) text += (axis > 0 ? ", " : "") + std::to_string(index[axis]);
  return text + "]";
}

std::string FormatNumber(double value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

// The error of one element pair; `within` says whether it passes the tolerance.
struct ElementError {
  double absolute = 0.0;
  double relative = 0.0;
  bool within = true;
};

ElementError CompareFloating(double actual, double expected, const Tolerance& tolerance) {
  if (std::isnan(actual) || std::isnan(expected)) {
    const bool both = std::isnan(actual) && std::isnan(expected);
    return both ? ElementError{} : ElementError{kInfinity, kInfinity, false};
  }
  if (std::isinf(actual) || std::isinf(expected)) {
    return actual == expected ? ElementError{} : ElementError{kInfinity, kInfinity, false};
  }
  ElementError error;
  error.absolute = std::fabs(actual - expected);
  error.relative = expected != 0.0 ? error.absolute / std::fabs(expected) : 0.0;
  error.within = error.absolute <= tolerance.absolute + tolerance.relative * std::fabs(expected);
  return error;
}

ElementError CompareIntegral(int64_t actual, int64_t expected, const Tolerance& tolerance) {
  if (actual == expected) return {};
  // Exact distance: the doubles of two large distinct int64 may be equal.
  const uint64_t distance = actual > expected ? static_cast<uint64_t>(actual) - static_cast<uint64_t>(expected)
                                              : static_cast<uint64_t>(expected) - static_cast<uint64_t>(actual);
  ElementError error;
  error.absolute = static_cast<double>(distance);
  const double magnitude = std::fabs(static_cast<double>(expected));
  error.relative = expected != 0 ? error.absolute / magnitude : 0.0;
  error.within = error.absolute <= tolerance.absolute + tolerance.relative * magnitude;
  return error;
}

void CompareTensors(const Tensor& actual, const Tensor& expected, size_t tensor_index,
                    const std::optional<Tolerance>& override_tolerance, Comparison& comparison) {
  const std::string label = "tensor " + std::to_string(tensor_index);
  Check(actual.defined() && expected.defined(), "cannot compare " + label + ": it is undefined");
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape()) {
    throw Error("cannot compare " + label + ": got " + std::string(DTypeName(actual.dtype())) + " " +
                ShapeToString(actual.shape()) + ", expected " + std::string(DTypeName(expected.dtype())) + " " +
                ShapeToString(expected.shape()));
  }
  const Tolerance tolerance = override_tolerance.value_or(DefaultTolerance(expected.dtype()));
  const bool floating = IsFloatingPoint(expected.dtype());
  const int64_t count = expected.NumElements();
  for (int64_t i = 0; i < count; ++i) {
    const ElementError error = floating ? CompareFloating(actual.GetAsDouble(i), expected.GetAsDouble(i), tolerance)
                                        : CompareIntegral(actual.GetAsInt64(i), expected.GetAsInt64(i), tolerance);
    comparison.max_abs_error = std::max(comparison.max_abs_error, error.absolute);
    comparison.max_rel_error = std::max(comparison.max_rel_error, error.relative);
    if (error.within) continue;
    if (comparison.mismatches++ == 0) {
      const auto value = [&](const Tensor& tensor) {
        return floating ? FormatNumber(tensor.GetAsDouble(i)) : std::to_string(tensor.GetAsInt64(i));
      };
      comparison.first_mismatch = label + ", element " + std::to_string(i) + " at " +
                                  IndexToString(i, expected.shape()) + ": got " + value(actual) + ", expected " +
                                  value(expected) + " (tolerance " + FormatNumber(tolerance.absolute) + " + " +
                                  FormatNumber(tolerance.relative) + " * |expected|)";
    }
  }
}

// Checks that both values have the same tuple nesting; `path` names the position.
void CheckSameStructure(const Value& actual, const Value& expected, const std::string& path) {
  if (actual.is_tuple() != expected.is_tuple()) {
    throw Error("cannot compare " + path + ": got a " + (actual.is_tuple() ? "tuple" : "tensor") + ", expected a " +
                (expected.is_tuple() ? "tuple" : "tensor"));
  }
  if (!expected.is_tuple()) return;
  if (actual.fields().size() != expected.fields().size()) {
    throw Error("cannot compare " + path + ": got a tuple of " + std::to_string(actual.fields().size()) +
                " fields, expected " + std::to_string(expected.fields().size()));
  }
  for (size_t i = 0; i < expected.fields().size(); ++i) {
    CheckSameStructure(actual.fields()[i], expected.fields()[i], path + "." + std::to_string(i));
  }
}

}  // namespace

Tolerance DefaultTolerance(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return {1e-4, 1e-4};
    case DType::kF16:
      return {1e-2, 1e-2};
    case DType::kBF16:
      return {5e-2, 5e-2};
    default:
      return {0.0, 0.0};
  }
}

Comparison CompareValues(const Value& actual, const Value& expected, const std::optional<Tolerance>& tolerance) {
  CheckSameStructure(actual, expected, "the result");
  const std::vector<Tensor> actual_tensors = actual.Flatten();
  const std::vector<Tensor> expected_tensors = expected.Flatten();
  Comparison comparison;
  for (size_t i = 0; i < expected_tensors.size(); ++i) {
    CompareTensors(actual_tensors[i], expected_tensors[i], i, tolerance, comparison);
  }
  return comparison;
}

}  // namespace collage
