#include "precision_arguments.h"

#include <cmath>
#include <cstdlib>

#include "pipeline/request_checks.h"

namespace collage::cli {

std::vector<OptionSpec> PrecisionOptionSpecs() {
  return {
      {{"--precision"}, "fp32|auto",
       "fp32 (default: every partition computes in f32) or auto (the search may also choose reduced-precision "
       "partitions, kept within --tolerance on the calibration inputs; needs --cost measured)"},
      {{"--tolerance"}, "T", "the largest error --precision auto accepts, by --metric (default: 0.01)"},
      {{"--metric"}, "rel-l2|max-rel|top1",
       "error of the worst output against f32: rel-l2 (default; ||y - y_f32|| / ||y_f32||), max-rel (max |y - y_f32| "
       "/ max |y_f32|) or top1 (fraction of rows whose argmax differs)"},
      {{"--calibration"}, "A.npz[,B.npz...]",
       "calibration inputs for --precision auto, one argument set per file (default: 8 seeded random sets)"},
  };
}

PrecisionRequest ReadPrecisionRequest(const ParsedArguments& arguments, const std::string& command) {
  PrecisionRequest request;
  const std::string mode = arguments.Value("--precision").value_or("fp32");
  const std::optional<PrecisionMode> parsed_mode = ParsePrecisionMode(mode);
  if (!parsed_mode) throw UsageError("--precision expects fp32 or auto, got '" + mode + "'", command);
  request.mode = *parsed_mode;
  if (const std::optional<std::string> tolerance = arguments.Value("--tolerance")) {
    char* end = nullptr;
    request.tolerance = std::strtod(tolerance->c_str(), &end);
    if (tolerance->empty() || *end != '\0') request.tolerance = std::nan("");
    CheckForCommand(command, [&] { CheckTolerance(request.tolerance, *tolerance); });
  }
  const std::string metric = arguments.Value("--metric").value_or("rel-l2");
  const std::optional<AccuracyMetric> parsed_metric = ParseAccuracyMetric(metric);
  if (!parsed_metric) throw UsageError("--metric expects rel-l2, max-rel or top1, got '" + metric + "'", command);
  request.metric = *parsed_metric;
  if (const std::optional<std::string> files = arguments.Value("--calibration")) {
    request.calibration_files = SplitList(*files, "--calibration", command);
  }
  return request;
}

}  // namespace collage::cli
