#include "report/html_report.h"

#include <cstdio>
#include <filesystem>

#include "report/html_escape.h"

namespace collage {
namespace {

constexpr const char* kNotAvailable = "&ndash;";

constexpr const char* kStyle = R"(
body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #202020; }
h1 { font-size: 1.5em; }
h2 { font-size: 1.2em; margin-top: 1.5em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #c0c0c0; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border: 1px solid #808080; margin-right: 0.3em;
          vertical-align: middle; }
.legend span.entry { margin-right: 1.2em; }
.graph { overflow: auto; border: 1px solid #e0e0e0; padding: 0.5em; }
.graph svg { max-width: 100%; height: auto; }
.missing { color: #a00000; }
tr.slow-path td { background: #fff0e0; }
)";

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Milliseconds(const std::optional<double>& ms) { return ms ? Format("%.4g", *ms) : kNotAvailable; }

std::string Cell(const std::string& html, bool number = false) {
  return std::string(number ? "<td class=\"number\">" : "<td>") + html + "</td>";
}

std::string Swatch(const std::string& color) {
  return "<span class=\"swatch\" style=\"background: " + HtmlEscape(color) + "\"></span>";
}

std::string Join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string SettingsSection(const PlacementReport& report) {
  std::string html = "<table class=\"settings\">\n";
  auto row = [&](const std::string& name, const std::string& value) {
    html += "<tr><th>" + name + "</th><td>" + HtmlEscape(value) + "</td></tr>\n";
  };
  row("model", report.model);
  row("backends", Join(report.backends));
  row("threads", std::to_string(report.threads));
  row("reduced precision ISA", report.reduced_precision_isa);
  row("precision", report.precision);
  row("cost model", std::string(CostModelName(report.cost_model)));
  row("timed runs", std::to_string(report.measured_runs));
  return html + "</table>\n";
}

std::string GraphSection(const BackendColors& colors, const SvgRendering& graph) {
  std::string html = "<h2>Placement graph</h2>\n<p class=\"legend\">";
  for (const auto& [backend, color] : colors.entries()) {
    html += "<span class=\"entry\">" + Swatch(color) + HtmlEscape(backend) + "</span>";
  }
  html += "</p>\n";
  if (!graph.svg) return html + "<p class=\"missing\">The graph is not drawn: " + HtmlEscape(graph.problem) + ".</p>\n";
  return html + "<div class=\"graph\">\n" + *graph.svg + "\n</div>\n";
}

std::string PartitionRow(const ReportPartition& partition, const BackendColors& colors) {
  std::string html = "<tr class=\"partition\">";
  html += Cell("<code>" + HtmlEscape(partition.symbol) + "</code>");
  html += Cell(Swatch(colors.ColorOf(partition.backend)) + HtmlEscape(partition.backend) +
              (partition.layout == "plain" ? "" : " <small>" + HtmlEscape(partition.layout) + "</small>") +
              (partition.precision == "f32" ? "" : " <small><b>" + HtmlEscape(partition.precision) + "</b></small>"));
  html += Cell(std::to_string(partition.ops) + ": " + HtmlEscape(partition.label));
  html += Cell(Milliseconds(partition.estimated_ms), true);
  html += Cell(Milliseconds(partition.measured_ms), true);
  const std::optional<double> ratio = partition.MeasuredOverEstimated();
  html += Cell(ratio ? Format("%.2f", *ratio) : kNotAvailable, true);
  if (partition.alternative) {
    html += Cell(HtmlEscape(partition.alternative->description));
    html += Cell(Format("%.4g", partition.alternative->estimated_ms), true);
    html += Cell(Format("%+.4g", partition.alternative->loss_ms), true);
  } else {
    html += Cell(partition.estimated_ms ? "only choice" : kNotAvailable) + Cell(kNotAvailable, true) +
            Cell(kNotAvailable, true);
  }
  return html + "</tr>\n";
}

std::string PartitionsSection(const PlacementReport& report, const BackendColors& colors) {
  std::string html =
      "<h2>Partitions</h2>\n<table class=\"partitions\">\n<thead><tr><th>symbol</th><th>backend</th><th>ops</th>"
      "<th>estimated ms</th><th>measured ms (median)</th><th>measured / estimated</th>"
      "<th>best losing alternative</th><th>its estimated ms</th><th>loss ms</th></tr></thead>\n<tbody>\n";
  for (const ReportPartition& partition : report.partitions) html += PartitionRow(partition, colors);
  return html + "</tbody>\n</table>\n";
}

std::string TotalsSection(const PlacementReport& report) {
  const std::optional<double> error = report.AdditiveError();
  std::string html = "<h2>Totals</h2>\n<table class=\"totals\">\n";
  auto row = [&](const std::string& name, const std::string& value) {
    html += "<tr><th>" + name + "</th>" + Cell(value, true) + "</tr>\n";
  };
  row("estimated total ms", Milliseconds(report.estimated_total_ms));
  row("sum of measured partitions ms", Milliseconds(report.MeasuredPartitionsMs()));
  row("measured end-to-end ms (median)", Milliseconds(report.measured_end_to_end_ms));
  row("additive error", error ? Format("%+.1f%%", 100.0 * *error) : kNotAvailable);
  return html +
         "</table>\n<p>The additive error is (measured end-to-end &minus; estimated total) / measured end-to-end: how "
         "far the sum of per-partition estimates is from the whole model's time.</p>\n";
}

std::string RefusalRow(const ReportRefusal& refusal) {
  return std::string(refusal.IsSlowPath() ? "<tr class=\"slow-path\">" : "<tr class=\"refusal\">") +
         Cell(HtmlEscape(refusal.candidate)) + Cell(HtmlEscape(refusal.reason)) + "</tr>\n";
}

// The candidates the backends refused, slow paths first; only measured tuning compiles them.
std::string RefusedSection(const PlacementReport& report) {
  if (report.cost_model != CostModel::kMeasured) return "";
  std::string html = "<h2>Refused candidates</h2>\n";
  if (report.refused.empty()) return html + "<p>No backend refused a candidate.</p>\n";
  size_t slow_paths = 0;
  std::string slow_rows, other_rows;
  for (const ReportRefusal& refusal : report.refused) {
    (refusal.IsSlowPath() ? slow_rows : other_rows) += RefusalRow(refusal);
    slow_paths += refusal.IsSlowPath() ? 1 : 0;
  }
  return html + "<p>" + std::to_string(report.refused.size()) + " candidates could not be compiled; " +
         std::to_string(slow_paths) +
         " of them would have run a slow path (a library's reference implementation), which the backend refuses "
         "rather than run silently.</p>\n<table class=\"refused\">\n<thead><tr><th>candidate</th><th>reason</th>"
         "</tr></thead>\n<tbody>\n" +
         slow_rows + other_rows + "</tbody>\n</table>\n";
}

}  // namespace

std::string PlacementReportToHtml(const PlacementReport& report, const BackendColors& colors, const SvgRendering& graph) {
  const std::string title = "Collage placement of " + std::filesystem::path(report.model).filename().string();
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + HtmlEscape(title) +
         "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" + HtmlEscape(title) + "</h1>\n" +
         SettingsSection(report) + GraphSection(colors, graph) + PartitionsSection(report, colors) +
         TotalsSection(report) + RefusedSection(report) + "</body>\n</html>\n";
}

std::string RenderPlacementReport(const PlacementReport& report, const std::string& dot_program) {
  const BackendColors colors(report);
  return PlacementReportToHtml(report, colors, RenderSvg(PlacementGraphToDot(report, colors), dot_program));
}

}  // namespace collage
