#include "report/graph_svg.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/subprocess.h"

namespace collage {
namespace {

constexpr const char* kParameterColor = "#ffffff";

// A dot double-quoted string; a line break in `text` becomes dot's centred line break.
std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '\n') {
      quoted += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string NodeName(size_t node) { return "n" + std::to_string(node); }

std::string NodeStatement(const PlacementReport& report, const BackendColors& colors, size_t node) {
  const ReportGraphNode& graph_node = report.nodes[node];
  const std::string color =
      graph_node.partition ? colors.ColorOf(report.partitions[*graph_node.partition].backend) : kParameterColor;
  return NodeName(node) + " [label=" + Quoted(graph_node.label + "\n" + graph_node.type) + ", fillcolor=" +
         Quoted(color) + "];";
}

std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string FirstLine(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "no message" : line;
}

// Files in the temporary folder, unique to this process and call, removed on destruction.
class TemporaryFiles {
 public:
  TemporaryFiles() {
    static std::atomic<uint64_t> serial{0};
    stem_ = std::filesystem::temp_directory_path() /
            ("collage_graph_" + std::to_string(getpid()) + "_" + std::to_string(serial++));
  }
  ~TemporaryFiles() {
    std::error_code ignored;
    for (const char* suffix : kSuffixes) std::filesystem::remove(PathOf(suffix), ignored);
  }
  TemporaryFiles(const TemporaryFiles&) = delete;
  TemporaryFiles& operator=(const TemporaryFiles&) = delete;

  std::string PathOf(const std::string& suffix) const { return stem_.string() + suffix; }

  static constexpr const char* kSuffixes[] = {".dot", ".svg", ".log"};

 private:
  std::filesystem::path stem_;
};

}  // namespace

std::string PlacementGraphToDot(const PlacementReport& report, const BackendColors& colors) {
  std::string dot =
      "digraph placement {\n"
      "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=10];\n"
      "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10];\n"
      "  edge [color=\"#606060\"];\n";
  std::vector<std::vector<size_t>> nodes_of_partition(report.partitions.size());
  for (size_t node = 0; node < report.nodes.size(); ++node) {
    if (report.nodes[node].partition) {
      nodes_of_partition[*report.nodes[node].partition].push_back(node);
    } else {
      dot += "  " + NodeStatement(report, colors, node) + "\n";
    }
  }
  for (size_t p = 0; p < report.partitions.size(); ++p) {
    if (nodes_of_partition[p].empty()) continue;
    const ReportPartition& partition = report.partitions[p];
    dot += "  subgraph cluster_" + std::to_string(p) + " {\n    label=" +
           Quoted(partition.symbol + " (" + partition.backend + ")") + "; style=\"rounded\"; color=" +
           Quoted(colors.ColorOf(partition.backend)) + "; penwidth=2;\n";
    for (size_t node : nodes_of_partition[p]) dot += "    " + NodeStatement(report, colors, node) + "\n";
    dot += "  }\n";
  }
  for (size_t node = 0; node < report.nodes.size(); ++node) {
    for (size_t input : report.nodes[node].inputs) dot += "  " + NodeName(input) + " -> " + NodeName(node) + ";\n";
  }
  return dot + "}\n";
}

SvgRendering RenderSvg(const std::string& dot_source, const std::string& dot_program) {
  const TemporaryFiles files;
  std::ofstream(files.PathOf(".dot"), std::ios::binary) << dot_source;
  const int status = RunProgram({dot_program, "-Tsvg"},
                                {.input = files.PathOf(".dot"), .output = files.PathOf(".svg"), .error = files.PathOf(".log")});
  if (status == kProgramNotStarted) {
    return {std::nullopt, "graphviz '" + dot_program + "' is not installed (or could not be started)"};
  }
  if (status != 0) {
    return {std::nullopt, "graphviz '" + dot_program + "' failed (exit status " + std::to_string(status) +
                              "): " + FirstLine(ReadWholeFile(files.PathOf(".log")))};
  }
  const std::string svg = ReadWholeFile(files.PathOf(".svg"));
  const size_t start = svg.find("<svg");
  if (start == std::string::npos) return {std::nullopt, "graphviz '" + dot_program + "' wrote no <svg> element"};
  return {svg.substr(start), ""};
}

}  // namespace collage
