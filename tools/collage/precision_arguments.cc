#include "precision_arguments.h"


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

void ReadPrecisionOptions(const ParsedArguments& arguments, const std::string& command, api::CompileOptions& options) {
  const std::string mode = arguments.Value("--precision").value_or("fp32");
  const std::optional<api::Precision> precision = api::ParsePrecision(mode);
  if (!precision) throw UsageError("--precision expects fp32 or auto, got '" + mode + "'", command);
  options.precision = *precision;
  if (const std::optional<std::string> tolerance = arguments.Value("--tolerance")) {
    CheckForCommand(command, [&] { options.tolerance = api::ParseTolerance(*tolerance); });
  }
  const std::string metric = arguments.Value("--metric").value_or("rel-l2");
  const std::optional<api::AccuracyMetric> parsed_metric = api::ParseAccuracyMetric(metric);
  if (!parsed_metric) throw UsageError("--metric expects rel-l2, max-rel or top1, got '" + metric + "'", command);
  options.metric = *parsed_metric;
  if (const std::optional<std::string> files = arguments.Value("--calibration")) {
    options.calibration_files = SplitList(*files, "--calibration", command);
  }
}

}  // namespace collage::cli
