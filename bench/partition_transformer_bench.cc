// Benchmark of the Collage partitioner at scale (not a test): partitions a 24-layer
// transformer encoder (sequence 128, hidden 768, 12 heads) with four backend specs and
// analytic costs, and prints the graph size, candidates per spec, states explored and the
// time of each phase.
//
//   build/bin/partition_transformer_bench [LAYERS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "cpu_line.h"
#include "ir/type_inference.h"
#include "pattern/pattern_parser.h"
#include "testing/transformer_graph.h"

namespace collage {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

SupportDeclaration OpLibrary(const std::string& backend, std::set<std::string> ops) {
  return SupportDeclaration{backend, [ops](const CallNode& call) { return ops.count(call.op()->name) > 0; }, {}, false};
}

// A pattern-table backend in the style of oneDNN's fused primitives.
SupportDeclaration PatternLibrary(const std::string& backend) {
  SupportDeclaration declaration;
  declaration.backend = backend;
  for (const auto& [name, pattern] : std::vector<std::pair<std::string, std::string>>{
           {"dense_bias", "add(nn.dense(*, const), const)"},
           {"dense_bias_residual", "add(add(nn.dense(*, const), const), *)"},
           {"batch_matmul", "nn.batch_matmul(*, *)"},
           {"scaled_batch_matmul", "multiply(nn.batch_matmul(*, *), const)"},
           {"softmax", "nn.softmax(add(*, const) | *)"},
           {"layer_norm", "nn.layer_norm(*, const, const)"},
       }) {
    declaration.patterns.push_back({backend + "." + name, ParsePattern(pattern), {}});
  }
  return declaration;
}

BackendPerformance Performance(double peak_flops, double bandwidth, double launch, double efficiency,
                               std::map<std::string, double> op_efficiency = {}) {
  return BackendPerformance{peak_flops, bandwidth, launch, efficiency, std::move(op_efficiency)};
}

int Main(int layers) {
  auto start = Clock::now();
  const Function transformer = testing::MakeTransformerEncoder({.layers = layers, .share_weights_by_shape = true});
  InferType(transformer);
  const DataflowGraph graph = DataflowGraph::Create(transformer->body);
  size_t op_calls = 0;
  for (const DataflowNode& node : graph.nodes()) {
    if (const auto* call = As<CallNode>(node.expr); call && call->op()) ++op_calls;
  }
  std::printf("model: %d-layer transformer encoder, sequence 128, hidden 768, 12 heads\n", layers);
  std::printf("graph: %zu dataflow nodes, %zu op calls (built in %.2f s)\n", graph.size(), op_calls,
              SecondsSince(start));

  const std::vector<PartitionSpec> specs = {
      MakePartitionSpec(OpLibrary("blas", {"nn.dense", "nn.batch_matmul"})),
      MakePartitionSpec(PatternLibrary("dnnl")),
      MakePartitionSpec(SupportDeclaration{"native", {}, {}, true}),
      MakePartitionSpec(OpLibrary("xnn", {"add", "multiply", "nn.softmax", "nn.layer_norm", "tanh", "reshape",
                                          "transpose"})),
      MakeHostSpec(),
  };
  AnalyticCostEstimator estimator({
      {"blas", Performance(1e12, 5e10, 3e-6, 0.0, {{"nn.dense", 0.85}, {"nn.batch_matmul", 0.7}})},
      {"dnnl", Performance(1e12, 5e10, 4e-6, 0.6, {{"nn.dense", 0.8}})},
      {"native", Performance(1e12, 5e10, 2e-6, 0.35)},
      {"xnn", Performance(1e12, 6e10, 3e-6, 0.5)},
      {"host", BackendPerformance{}},
  });

  start = Clock::now();
  std::vector<CandidatePartition> candidates;
  for (const PartitionSpec& spec : specs) {
    const auto spec_start = Clock::now();
    const size_t before = candidates.size();
    for (CandidatePartition& candidate : spec.AllCandidates(graph)) candidates.push_back(std::move(candidate));
    std::printf("  spec %-7s %7zu candidates  %.3f s\n", spec.name.c_str(), candidates.size() - before,
                SecondsSince(spec_start));
  }
  const double candidate_seconds = SecondsSince(start);
  std::vector<std::string> names;
  for (const PartitionSpec& spec : specs) names.push_back(spec.name);
  const SearchResult search = SearchOptimalPlacement(graph, candidates, estimator, names);
  std::printf("phase 2 (candidates): %zu candidates in %.3f s\n", candidates.size(), candidate_seconds);
  std::printf("phase 3 (search): %zu states explored, %zu reached, %.3f s; estimated %.4f ms\n",
              search.stats.states_explored, search.stats.states_reached, search.stats.seconds,
              search.total.seconds() * 1e3);

  start = Clock::now();
  const Explanation explanation = ExplainPlacement(graph, candidates, search, estimator);
  std::printf("explain: %zu partitions explained in %.3f s\n", explanation.partitions.size(), SecondsSince(start));

  start = Clock::now();
  const PartitionResult result = Partition(transformer, specs, estimator);
  const double partition_seconds = SecondsSince(start);
  std::map<std::string, size_t> per_backend;
  for (const CandidatePartition& chosen : result.chosen) ++per_backend[chosen.backend()];
  std::printf("end to end Partition (phases 2-4, warm cost cache): %.3f s\n", partition_seconds);
  for (const auto& [backend, count] : per_backend) std::printf("  %-7s %5zu partitions\n", backend.c_str(), count);
  return 0;
}

}  // namespace
}  // namespace collage

int main(int argc, char** argv) {
  const int layers = argc > 1 ? std::atoi(argv[1]) : 24;
  if (layers <= 0) {
    std::fprintf(stderr, "usage: partition_transformer_bench [LAYERS > 0]\n");
    return 2;
  }
  collage::bench::PrintCpuLine();
  return collage::Main(layers);
}
