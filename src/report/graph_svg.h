// The placement graph of the report: the partitioned functions' dataflow graphs as Graphviz
// dot (one node per op call labelled with the op name and output type, filled with the colour
// of its partition's backend; one cluster per partition; parameters in white) and its
// rendering to SVG by the `dot` program, which is optional: without it there is no SVG and a
// one-line reason instead.
#pragma once

#include <optional>
#include <string>

#include "report/backend_colors.h"
#include "report/placement_report.h"

namespace collage {

std::string PlacementGraphToDot(const PlacementReport& report, const BackendColors& colors);

struct SvgRendering {
  std::optional<std::string> svg;  // the <svg> element alone (no XML prolog), ready to inline in HTML
  std::string problem;             // why there is no svg: the program is missing or failed
};

// Runs `dot_program -Tsvg` (searched on PATH) on `dot_source`.
SvgRendering RenderSvg(const std::string& dot_source, const std::string& dot_program = "dot");

}  // namespace collage
