#include "tuning/transition_penalty.h"

#include <algorithm>

#include "support/error.h"
#include "support/layout_conversion.h"
#include "support/tensor.h"
#include "tuning/device_value.h"
#include "tuning/measurement.h"

namespace collage {
namespace {

// Bumped when the conversion kernel changes, so older measurements are not reused.
constexpr const char* kConversionKernelVersion = "3";

template <typename Visit>
void ForEachTensorType(const Type& type, const Visit& visit) {
  if (const TupleTypeNode* tuple = AsTupleType(type)) {
    for (const Type& field : tuple->fields) ForEachTensorType(field, visit);
  } else if (const TensorTypeNode* tensor = AsTensorType(type)) {
    visit(*tensor);
  }
}

}  // namespace

decltype(SearchOptions::transition_penalty) ConversionTransitionPenalty(ConversionCost cost) {
  Check(static_cast<bool>(cost), "ConversionTransitionPenalty: no conversion cost");
  return [cost = std::move(cost)](const PartitionSide& producer, const PartitionSide& consumer, size_t value,
                                  const DataflowGraph& graph) {
    const Expr& expr = graph.node(value).expr;
    const Layout from = producer.layouts.results;
    const Layout to = consumer.layouts.parameters;
    if (expr->kind() == ExprKind::kConstant || from == to) return 0.0;
    double seconds = 0;
    ForEachTensorType(expr->checked_type(), [&](const TensorTypeNode& tensor) {
      if (!LayoutsShareBytes(tensor.shape, from, to)) seconds += cost(tensor.shape, tensor.dtype, from, to);
    });
    return seconds;
  };
}

decltype(SearchOptions::transition_penalty_bound) ConversionTransitionPenaltyBound(ConversionCost cost,
                                                                                   std::vector<Layout> layouts,
                                                                                   double most_hand_over) {
  Check(static_cast<bool>(cost), "ConversionTransitionPenaltyBound: no conversion cost");
  Check(most_hand_over >= 0, "ConversionTransitionPenaltyBound: a negative hand-over bound");
  return [cost = std::move(cost), layouts = std::move(layouts), most_hand_over](size_t value,
                                                                                const DataflowGraph& graph) {
    const Expr& expr = graph.node(value).expr;
    if (expr->kind() == ExprKind::kConstant) return 0.0;
    double seconds = most_hand_over;
    ForEachTensorType(expr->checked_type(), [&](const TensorTypeNode& tensor) {
      double dearest = 0;
      for (Layout from : layouts) {
        for (Layout to : layouts) {
          if (!LayoutsShareBytes(tensor.shape, from, to)) {
            dearest = std::max(dearest, cost(tensor.shape, tensor.dtype, from, to));
          }
        }
      }
      seconds += dearest;
    });
    return seconds;
  };
}

decltype(SearchOptions::hand_over_penalty) BackendHandOverPenalty(HandOverCost cost,
                                                                  std::map<std::string, std::string> backend_of_spec) {
  Check(static_cast<bool>(cost), "BackendHandOverPenalty: no hand-over cost");
  return [cost = std::move(cost), backend_of_spec = std::move(backend_of_spec)](const PartitionSide& producer,
                                                                                const PartitionSide& consumer) {
    const auto from = backend_of_spec.find(producer.spec);
    const auto to = backend_of_spec.find(consumer.spec);
    if (from == backend_of_spec.end() || to == backend_of_spec.end() || from->second == to->second) return 0.0;
    return cost(from->second, to->second);
  };
}

double MeasureConversion(const Shape& shape, DType dtype, Layout from, Layout to) {
  const Tensor source = Tensor::Random(dtype, PhysicalShape(shape, from), /*seed=*/1);
  Tensor target = Tensor::Zeros(dtype, PhysicalShape(shape, to));
  MeasurementOptions options;
  options.warmup_runs = 1;
  options.min_runs = 5;
  options.max_runs = 25;
  options.budget_seconds = 0.01;
  return MeasureRepeatedly([&] { ConvertLayout(source, from, target, to, shape); }, options).median_seconds;
}

double MeasuredConversionCosts::Seconds(const Shape& shape, DType dtype, Layout from, Layout to) {
  const auto key = std::make_tuple(shape, dtype, from, to);
  if (auto found = known_.find(key); found != known_.end()) return found->second;
  const std::string name = std::string("layout_conversion_seconds v") + kConversionKernelVersion + " " +
                           LayoutName(from) + "->" + LayoutName(to) + " " + std::string(DTypeName(dtype)) +
                           ShapeToString(shape);
  const double seconds =
      RecallDeviceValue(database_, name, [&] { return MeasureConversion(shape, dtype, from, to); });
  known_.emplace(key, seconds);
  return seconds;
}

ConversionCost MeasuredConversionCosts::AsFunction() {
  return [this](const Shape& shape, DType dtype, Layout from, Layout to) { return Seconds(shape, dtype, from, to); };
}

}  // namespace collage
