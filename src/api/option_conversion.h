// Between the public API's option enums and the library's own.
#pragma once

#include "collage/compile_options.h"
#include "collage/cost_model.h"
#include "collage/search_level.h"
#include "pipeline/precision_request.h"
#include "runtime/accuracy_metric.h"

namespace collage::api {

collage::CostModel ToLibraryCostModel(CostModel cost);
CostModel FromLibraryCostModel(collage::CostModel cost);
collage::SearchLevel ToLibrarySearchLevel(SearchLevel search);
PrecisionMode ToLibraryPrecision(Precision precision);
collage::AccuracyMetric ToLibraryMetric(AccuracyMetric metric);
AccuracyMetric FromLibraryMetric(collage::AccuracyMetric metric);

}  // namespace collage::api
