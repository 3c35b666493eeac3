// `collage partition --report REPORT.html`: measures the partitioned module and writes the
// placement report (src/report/). The module is compiled once by the executor with
// profiling on and run on seeded random inputs: warm-up runs first, then timed runs whose
// medians (per partition and end to end) fill the report's measured columns.
#pragma once

#include <string>

#include "ir/module.h"
#include "pipeline/plan_file.h"
#include "report/placement_report.h"

namespace collage {

// Runs on `report.threads` threads. Throws Error when the module cannot be compiled or run,
// or the file cannot be written.
void WritePartitionReport(const std::string& path, PlacementReport report, const Module& partitioned);

// The report's partitions take their precisions from the plan (the accuracy loop may have moved
// the search's reduced partitions back to f32), and its settings the plan's precision line.
void SetReportPrecisions(PlacementReport& report, const Plan& plan);

}  // namespace collage
