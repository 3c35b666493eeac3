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

// The error of one element pair; `within` says whether it is inside the tensor's bound.
struct ElementError {
  double absolute = 0.0;
  bool within = true;
};

ElementError CompareFloating(double actual, double expected, double bound) {
  if (std::isnan(actual) || std::isnan(expected)) {
    const bool both = std::isnan(actual) && std::isnan(expected);
    return both ? ElementError{} : ElementError{kInfinity, false};
  }
  if (std::isinf(actual) || std::isinf(expected)) {
    return actual == expected ? ElementError{} : ElementError{kInfinity, false};
  }
  const double absolute = std::fabs(actual - expected);
  return {absolute, absolute <= bound};
}

ElementError CompareIntegral(int64_t actual, int64_t expected, double bound) {
  if (actual == expected) return {};
  // Exact distance: the doubles of two large distinct int64 may be equal.
  const uint64_t distance = actual > expected ? static_cast<uint64_t>(actual) - static_cast<uint64_t>(expected)
                                              : static_cast<uint64_t>(expected) - static_cast<uint64_t>(actual);
  const double absolute = static_cast<double>(distance);
  return {absolute, absolute <= bound};
}

// The largest finite |expected| of the tensor (0 when there is none).
double Magnitude(const Tensor& expected, bool floating) {
  double magnitude = 0.0;
  const int64_t count = expected.NumElements();
  for (int64_t i = 0; i < count; ++i) {
    const double value = floating ? expected.GetAsDouble(i) : static_cast<double>(expected.GetAsInt64(i));
    if (std::isfinite(value)) magnitude = std::max(magnitude, std::fabs(value));
  }
  return magnitude;
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
  const double magnitude = Magnitude(expected, floating);
  const double bound = tolerance.relative * magnitude + AbsoluteFloor(expected.dtype());
  const int64_t count = expected.NumElements();
  double tensor_error = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    const ElementError error = floating ? CompareFloating(actual.GetAsDouble(i), expected.GetAsDouble(i), bound)
                                        : CompareIntegral(actual.GetAsInt64(i), expected.GetAsInt64(i), bound);
    tensor_error = std::max(tensor_error, error.absolute);
    if (error.within) continue;
    if (comparison.mismatches++ == 0) {
      const auto value = [&](const Tensor& tensor) {
        return floating ? FormatNumber(tensor.GetAsDouble(i)) : std::to_string(tensor.GetAsInt64(i));
      };
      comparison.first_mismatch = label + ", element " + std::to_string(i) + " at " +
                                  IndexToString(i, expected.shape()) + ": got " + value(actual) + ", expected " +
                                  value(expected) + " (bound " + FormatNumber(tolerance.relative) +
                                  " * max |expected| " + FormatNumber(magnitude) + ")";
    }
  }
  comparison.max_abs_error = std::max(comparison.max_abs_error, tensor_error);
  const double scaled = magnitude > 0.0 ? tensor_error / magnitude : (tensor_error > 0.0 ? kInfinity : 0.0);
  comparison.max_scaled_error = std::max(comparison.max_scaled_error, scaled);
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
      return {1e-4};
    case DType::kF16:
      return {1e-2};
    case DType::kBF16:
      return {5e-2};
    case DType::kF64:
      return {1e-9};
    default:
      return {0.0};
  }
}

double AbsoluteFloor(DType dtype) {
  switch (dtype) {
    case DType::kF32:
    case DType::kF16:
    case DType::kBF16:
      return std::numeric_limits<float>::min();
    case DType::kF64:
      return std::numeric_limits<double>::min();
    default:
      return 0.0;
  }
}

Comparison CompareValues(const Value& actual, const Value& expected, const std::optional<Tolerance>& tolerance) {
  CheckSameStructure(actual, expected, "the result");
  return CompareTensorLists(actual.Flatten(), expected.Flatten(), tolerance);
}

Comparison CompareTensorLists(const std::vector<Tensor>& actual, const std::vector<Tensor>& expected,
                              const std::optional<Tolerance>& tolerance) {
  if (actual.size() != expected.size()) {
    throw Error("cannot compare " + std::to_string(actual.size()) + " tensors with " +
                std::to_string(expected.size()) + " expected ones");
  }
  Comparison comparison;
  for (size_t i = 0; i < expected.size(); ++i) CompareTensors(actual[i], expected[i], i, tolerance, comparison);
  return comparison;
}

}  // namespace collage
