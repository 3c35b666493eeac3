// The transition penalty of measured tuning: what handing a value from one partition to
// another costs beyond the partitions' own measured times.
//
// Each candidate is measured with its boundary in its own layout (backend/boundary_layout.h)
// and no conversion at its edges, so what is left is converting a value where the producer's
// boundary layout and the consumer's differ (the model's parameters and results are plain):
// a conversion kernel (support/layout_conversion.h) measured per (shape, element type, from,
// to) on this machine and kept in the cost database. Values whose bytes agree in both layouts,
// and constants, cost nothing.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "collage/search.h"
#include "runtime/cost_database.h"
#include "support/dtype.h"
#include "support/shape.h"
#include "support/tensor_format.h"

namespace collage {

// Seconds to convert a tensor of logical shape `shape` between two layouts whose bytes differ.
using ConversionCost = std::function<double(const Shape& shape, DType dtype, Layout from, Layout to)>;

// The search's penalty: the conversion of every tensor of node `value` (each field of a tuple)
// from the producer's layout to the consumer's; 0 where the bytes agree and for constants.
decltype(SearchOptions::transition_penalty) ConversionTransitionPenalty(ConversionCost cost);
// Its bound per value: the dearest conversion between any two of `layouts` (those the
// partitions can take, plain among them), plus `most_hand_over` (the dearest hand-over
// between two backends; a hand-over is charged for at least one value) for non-constants.
decltype(SearchOptions::transition_penalty_bound) ConversionTransitionPenaltyBound(ConversionCost cost,
                                                                                   std::vector<Layout> layouts,
                                                                                   double most_hand_over = 0);

// Seconds to run a partition of backend `consumer` right after one of backend `producer`,
// beyond running it after one of its own (tuning/hand_over_cost.h).
using HandOverCost = std::function<double(const std::string& producer, const std::string& consumer)>;

// The search's hand-over penalty: `cost` between the backends of the two sides' specs, as
// `backend_of_spec` names them (a spec it does not name costs nothing).
decltype(SearchOptions::hand_over_penalty) BackendHandOverPenalty(HandOverCost cost,
                                                                  std::map<std::string, std::string> backend_of_spec);

// Conversion times measured on this machine with the conversion kernel (the median of a few
// runs), looked up first in the database (per device) and stored there, and remembered.
class MeasuredConversionCosts {
 public:
  // Keeps a pointer to `database` (may be null: measured and remembered only).
  explicit MeasuredConversionCosts(CostDatabase* database) : database_(database) {}
  double Seconds(const Shape& shape, DType dtype, Layout from, Layout to);
  // A ConversionCost calling Seconds on this object, which must outlive it.
  ConversionCost AsFunction();

 private:
  CostDatabase* database_;
  std::map<std::tuple<Shape, DType, Layout, Layout>, double> known_;
};

// Times one conversion on this machine: the median of a few runs.
double MeasureConversion(const Shape& shape, DType dtype, Layout from, Layout to);

}  // namespace collage
