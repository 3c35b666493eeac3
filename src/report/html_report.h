// The placement report as one self-contained HTML file: inline CSS and SVG, no scripts, no
// network. It shows the run's settings, the placement graph with a legend of backend colours
// (or why the graph is missing), a table with one row per partition (estimated and measured
// time, their ratio, the best losing alternative with its cost and loss) and the totals with
// the additive error. Every string from the report is HTML-escaped.
#pragma once

#include <string>

#include "report/backend_colors.h"
#include "report/graph_svg.h"
#include "report/placement_report.h"

namespace collage {

std::string PlacementReportToHtml(const PlacementReport& report, const BackendColors& colors, const SvgRendering& graph);

// Colours, dot source, SVG through `dot_program`, then the HTML.
std::string RenderPlacementReport(const PlacementReport& report, const std::string& dot_program = "dot");

}  // namespace collage
