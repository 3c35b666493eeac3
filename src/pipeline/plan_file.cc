#include "pipeline/plan_file.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "ir/printer.h"
#include "ir/structural_equal.h"
#include "ir/type.h"
#include "parser/parser.h"
#include "pipeline/text_file.h"
#include "support/hash.h"

namespace collage {
namespace {

constexpr const char* kMagic = "// collage plan 4";
constexpr const char* kPlanHashKey = "plan hash";

// StableHash of the plan's text without its plan hash line, as 16 hex digits.
std::string PlanTextHash(std::string_view text_without_hash_line) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, StableHash(text_without_hash_line));
  return text;
}

std::string FormatDouble(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Reads the header lines in order, naming the plan file and line in errors.
class HeaderReader {
 public:
  HeaderReader(const std::string& text, const std::string& path) : lines_(text), path_(path) {}

  // The rest of the line after "// <key>: ", or nullopt when the next line is no such line.
  std::optional<std::string> Next(const std::string& key) {
    const std::streampos position = lines_.tellg();
    std::string line;
    if (!std::getline(lines_, line)) return std::nullopt;
    const std::string prefix = "// " + key + ": ";
    if (line.compare(0, prefix.size(), prefix) != 0) {
      lines_.clear();
      lines_.seekg(position);
      return std::nullopt;
    }
    ++line_number_;
    return line.substr(prefix.size());
  }
  std::string Required(const std::string& key) {
    std::optional<std::string> value = Next(key);
    if (!value) Fail(line_number_ + 1, "expected '// " + key + ": ...'");
    return *value;
  }
  void ExpectMagic() {
    std::string line;
    std::getline(lines_, line);
    ++line_number_;
    if (line == "// collage plan 1") {
      Fail(1, "plan format 1 has no plan hash; make the plan again with this collage's `collage partition -o`");
    }
    if (line == "// collage plan 2") {
      Fail(1, "plan format 2 has no boundary layouts; make the plan again with this collage's `collage partition -o`");
    }
    if (line == "// collage plan 3") {
      Fail(1, "plan format 3 has no precisions; make the plan again with this collage's `collage partition -o`");
    }
    if (line != kMagic) Fail(1, "expected '" + std::string(kMagic) + "' (not a plan written by `collage partition`)");
  }
  // An error at header line `line` (1-based).
  [[noreturn]] void Fail(size_t line, const std::string& message) const {
    throw Error(path_ + ":" + std::to_string(line) + ": plan header: " + message);
  }
  // The number of header lines read so far: the line of the last value returned.
  size_t line_number() const { return line_number_; }
  // Where the next line starts in the text.
  size_t offset() { return static_cast<size_t>(lines_.tellg()); }

 private:
  std::istringstream lines_;
  std::string path_;
  size_t line_number_ = 0;
};

PlannedPartition ParsePartitionLine(const std::string& value, const HeaderReader& reader) {
  PlannedPartition partition;
  char symbol[256], backend[256], layout[32], precision[32];
  unsigned long long ops = 0;
  int consumed = 0;
  if (std::sscanf(value.c_str(), "%255s backend=%255s layout=%31s precision=%31s ops=%llu estimated_ms=%lf%n", symbol,
                  backend, layout, precision, &ops, &partition.estimated_ms, &consumed) != 6 ||
      static_cast<size_t>(consumed) != value.size()) {
    reader.Fail(reader.line_number(), "malformed partition line '" + value + "'");
  }
  const std::optional<DType> parsed_precision = ParseDType(precision);
  if (!parsed_precision) {
    reader.Fail(reader.line_number(), "unknown precision '" + std::string(precision) + "' (expected an element type)");
  }
  partition.precision = *parsed_precision;
  const std::optional<PartitionLayouts> parsed_layout = ParsePartitionLayouts(layout);
  if (!parsed_layout) {
    reader.Fail(reader.line_number(), "unknown layout '" + std::string(layout) + "' (expected one of " + LayoutNames() +
                                          ", or two of them as <parameters>><results>)");
  }
  partition.layout = *parsed_layout;
  partition.symbol = symbol;
  partition.backend = backend;
  partition.ops = static_cast<size_t>(ops);
  return partition;
}

std::string PrecisionLine(const PlanPrecision& precision) {
  std::string line = PrecisionModeName(precision.mode);
  if (precision.mode == PrecisionMode::kFp32) return line;
  return line + " tolerance=" + FormatDouble(precision.tolerance) + " metric=" + AccuracyMetricName(precision.metric) +
         " calibration_error=" + FormatDouble(precision.calibration_error) +
         " check_error=" + FormatDouble(precision.check_error);
}

PlanPrecision ParsePrecisionLine(const std::string& value, const HeaderReader& reader) {
  PlanPrecision precision;
  char mode[32], metric[32];
  int consumed = 0;
  if (std::sscanf(value.c_str(), "%31s%n", mode, &consumed) != 1) reader.Fail(reader.line_number(), "empty precision");
  const std::optional<PrecisionMode> parsed_mode = ParsePrecisionMode(mode);
  if (!parsed_mode) {
    reader.Fail(reader.line_number(), "unknown precision '" + std::string(mode) + "' (expected fp32 or auto)");
  }
  precision.mode = *parsed_mode;
  if (precision.mode == PrecisionMode::kFp32) {
    if (static_cast<size_t>(consumed) != value.size()) {
      reader.Fail(reader.line_number(), "malformed precision line '" + value + "'");
    }
    return precision;
  }
  if (std::sscanf(value.c_str(), "auto tolerance=%lf metric=%31s calibration_error=%lf check_error=%lf%n",
                  &precision.tolerance, metric, &precision.calibration_error, &precision.check_error,
                  &consumed) != 4 ||
      static_cast<size_t>(consumed) != value.size()) {
    reader.Fail(reader.line_number(), "malformed precision line '" + value +
                                          "' (expected: auto tolerance=T metric=M calibration_error=E check_error=E)");
  }
  const std::optional<AccuracyMetric> parsed_metric = ParseAccuracyMetric(metric);
  if (!parsed_metric) {
    reader.Fail(reader.line_number(), "unknown metric '" + std::string(metric) + "' (expected rel-l2, max-rel or top1)");
  }
  precision.metric = *parsed_metric;
  return precision;
}

}  // namespace

size_t ReducedPartitionCount(const Plan& plan) {
  return static_cast<size_t>(std::count_if(plan.partitions.begin(), plan.partitions.end(),
                                           [](const PlannedPartition& partition) { return partition.precision != DType::kF32; }));
}

bool HasReducedPrecision(const Plan& plan) { return ReducedPartitionCount(plan) > 0; }

std::string ModelHash(const Module& module) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64,
                static_cast<uint64_t>(StructuralHash(module, {.hash_constant_values = true})));
  return text;
}

std::string PlanToText(const Plan& plan) {
  std::string text = std::string(kMagic) + "\n";
  text += "// model: " + plan.model_path + " " + plan.model_hash + "\n";
  std::string backends;
  for (const std::string& backend : plan.backends) backends += (backends.empty() ? "" : ",") + backend;
  text += "// backends: " + backends + "\n";
  text += "// cost: " + std::string(CostModelName(plan.cost_model)) + "\n";
  text += "// precision: " + PrecisionLine(plan.precision) + "\n";
  for (const PlannedPartition& partition : plan.partitions) {
    text += "// partition: " + partition.symbol + " backend=" + partition.backend + " layout=" +
            PartitionLayoutsName(partition.layout) + " precision=" + std::string(DTypeName(partition.precision)) +
            " ops=" + std::to_string(partition.ops) + " estimated_ms=" + FormatDouble(partition.estimated_ms) + "\n";
  }
  text += "// total_ms: " + FormatDouble(plan.total_ms) + "\n";
  std::string module = PrintModule(plan.module);
  if (!module.empty() && module.back() != '\n') module += '\n';
  return text + "// " + kPlanHashKey + ": " + PlanTextHash(text + module) + "\n" + module;
}

Plan ParsePlan(const std::string& text, const std::string& path) {
  HeaderReader reader(text, path);
  reader.ExpectMagic();
  Plan plan;
  const std::string model = reader.Required("model");
  const size_t space = model.rfind(' ');
  if (space == std::string::npos || model.size() - space - 1 != 16) {
    reader.Fail(reader.line_number(), "malformed model line '" + model + "' (expected: PATH HASH)");
  }
  plan.model_path = model.substr(0, space);
  plan.model_hash = model.substr(space + 1);
  std::istringstream backends(reader.Required("backends"));
  for (std::string backend; std::getline(backends, backend, ',');) {
    if (backend.empty()) reader.Fail(reader.line_number(), "empty backend name");
    plan.backends.push_back(backend);
  }
  const std::string cost_model = reader.Required("cost");
  const std::optional<CostModel> parsed_cost_model = ParseCostModel(cost_model);
  if (!parsed_cost_model) {
    reader.Fail(reader.line_number(), "unknown cost model '" + cost_model + "' (expected analytic or measured)");
  }
  plan.cost_model = *parsed_cost_model;
  plan.precision = ParsePrecisionLine(reader.Required("precision"), reader);
  while (std::optional<std::string> line = reader.Next("partition")) {
    plan.partitions.push_back(ParsePartitionLine(*line, reader));
  }
  const std::string total = reader.Required("total_ms");
  char* end = nullptr;
  plan.total_ms = std::strtod(total.c_str(), &end);
  if (total.empty() || *end != '\0') reader.Fail(reader.line_number(), "malformed total '" + total + "'");
  const size_t hash_line_start = reader.offset();
  const std::string stored_hash = reader.Required(kPlanHashKey);
  const size_t hash_line_end = reader.offset();
  const std::string actual_hash =
      PlanTextHash(text.substr(0, hash_line_start) + text.substr(std::min(hash_line_end, text.size())));
  if (stored_hash != actual_hash) {
    reader.Fail(reader.line_number(), "the plan hash " + stored_hash + " does not match the plan's text (hash " +
                                          actual_hash + "): the plan was edited or damaged; make it again");
  }
  plan.module = ParseModule(text, path);
  return plan;
}

Plan ReadPlanFile(const std::string& path) { return ParsePlan(ReadTextFile(path), path); }

void CheckPlanMatchesModel(const Plan& plan, const std::string& plan_path, const Module& model,
                           const std::string& model_path) {
  const std::string hash = ModelHash(model);
  if (hash == plan.model_hash) return;
  // The same model bound to other input shapes: name the first input that differs.
  const std::vector<Var>& planned = plan.module.main()->params;
  const std::vector<Var>& given = model.main()->params;
  for (size_t i = 0; i < planned.size() && i < given.size(); ++i) {
    const std::string planned_type = TypeToString(planned[i]->type_annotation);
    const std::string given_type = TypeToString(given[i]->type_annotation);
    if (planned[i]->name_hint == given[i]->name_hint && planned_type != given_type) {
      throw Error("plan '" + plan_path + "' was made for input '" + planned[i]->name_hint + "' of type " +
                  planned_type + ", not " + given_type + " (partition again with this --shape or these --inputs)");
    }
  }
  throw Error("plan '" + plan_path + "' was made for model '" + plan.model_path + "' (hash " + plan.model_hash +
              "), not for model '" + model_path + "' (hash " + hash + ")");
}

}  // namespace collage
