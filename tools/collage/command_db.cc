// `collage db stats|clear|export [--db PATH] [-o OUT.csv]`: inspects the measured-cost
// database (default api::DefaultCostDatabase()): `stats` prints its location, schema, size
// and entry counts per backend; `clear` deletes every measured cost; `export` writes every
// entry as CSV to stdout or to OUT.csv.
#include <iostream>
#include <sstream>

#include "collage/compile_options.h"
#include "collage/cost_database.h"
#include "commands.h"
#include "output_paths.h"
#include "pipeline/text_file.h"

namespace collage::cli {
namespace {

constexpr const char* kCommand = "db";

// `label` followed by spaces up to `width` (at least two).
std::string Padded(std::string label, size_t width = 16) {
  label.resize(std::max(label.size() + 2, width), ' ');
  return label;
}

int PrintStats(const std::string& path) {
  const api::CostDatabaseStats stats = api::ReadCostDatabaseStats(path);
  std::cout << Padded("database") << stats.path << "\n"
            << Padded("schema") << stats.schema_version << "\n"
            << Padded("size") << stats.file_bytes << " bytes\n"
            << Padded("entries") << stats.entries << " (" << stats.invalid << " invalid"
            << (stats.transient > 0 ? ", " + std::to_string(stats.transient) + " of them transient" : "") << ")\n"
            << Padded("device values") << stats.device_values << "\n";
  for (const auto& [backend, entries] : stats.per_backend) std::cout << "  " << Padded(backend, 14) << entries << "\n";
  return 0;
}

int ClearEntries(const std::string& path) {
  const api::ClearedCosts cleared = api::ClearCostDatabase(path);
  std::cout << "removed " << cleared.entries << " entries and " << cleared.device_values << " device values from "
            << cleared.path << "\n";
  return 0;
}

int ExportEntries(const std::string& path, const std::optional<std::string>& output) {
  if (!output) {
    api::ExportCostDatabase(path, std::cout);
    return 0;
  }
  std::ostringstream csv;
  api::ExportCostDatabase(path, csv);
  WriteTextFile(*output, csv.str());
  return 0;
}

}  // namespace

CommandSpec DbCommandSpec() {
  return {kCommand,
          "SUBCOMMAND",
          "inspect the measured-cost database: stats, clear or export (CSV)",
          {
              {{"--db"}, "PATH", "the cost database (default: $COLLAGE_COST_DB, else ~/.cache/collage/costs.sqlite)"},
              {{"--output", "-o"}, "OUT", "export: write the CSV to OUT instead of stdout"},
          }};
}

int RunDbCommand(const ParsedArguments& arguments) {
  const std::string& subcommand = arguments.positional;
  if (subcommand != "stats" && subcommand != "clear" && subcommand != "export") {
    throw UsageError("unknown db subcommand '" + subcommand + "' (expected stats, clear or export)", kCommand);
  }
  if (arguments.Has("--output") && subcommand != "export") {
    throw UsageError("--output is only for 'db export'", kCommand);
  }
  const std::string path = arguments.Value("--db").value_or(api::DefaultCostDatabase());
  if (path.empty()) throw UsageError("--db needs a non-empty PATH", kCommand);
  RefuseOutputsOverInputs(
      {{"--output", arguments.Value("--output").value_or("")}},
      {{"--db", path}, {"--db (write-ahead log)", path + "-wal"}, {"--db (shared memory)", path + "-shm"}});
  if (subcommand == "stats") return PrintStats(path);
  if (subcommand == "clear") return ClearEntries(path);
  return ExportEntries(path, arguments.Value("--output"));
}

}  // namespace collage::cli
