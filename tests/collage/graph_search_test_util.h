// Graphs, specs and mock whole-plan costs shared by the graph-level search tests.
//
// Two backends: "lib" (an op library: one op per partition, 1 ms each) and "graph" (a graph
// runtime running the ops it is given; estimated 1.5 ms per op, so the op-level search never
// picks it). The mock whole-plan fitness knows better: a graph partition costs `overhead`
// plus a per-op time (`fast` for the ops in `fast_ops`, `slow` for the others).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "collage_test_graphs.h"

namespace collage::collage_testing {

inline const char* kGraphRuntime = "graph";

// x -> ops[0] -> ops[1] -> ... (unary ops), post-DFS indices x=0, ops[i]=i+1.
inline Function MakeOpChain(const std::vector<std::string>& ops) {
  const Var parameter = MakeVar("x", testing::F32({2, 3}));
  Expr value = parameter;
  for (const std::string& op : ops) value = CallOp(op, {value});
  return MakeFunction({parameter}, value);
}

inline std::string OpName(const DataflowGraph& graph, size_t node) {
  const auto* call = As<CallNode>(graph.node(node).expr);
  return call != nullptr && call->op() != nullptr ? call->op()->name : "";
}

inline size_t OpCount(const DataflowGraph& graph, const CandidatePartition& candidate) {
  size_t ops = 0;
  for (size_t node : candidate.sub_graph().inside().ToVector()) ops += OpName(graph, node).empty() ? 0 : 1;
  return ops;
}

// lib: single ops at 1 ms; graph: 1.5 ms per op; host: free.
inline Cost EstimatedCost(const DataflowGraph& graph, const CandidatePartition& candidate) {
  const size_t ops = OpCount(graph, candidate);
  if (candidate.backend() == "lib") return ops == 1 ? Cost::Seconds(1e-3) : Cost::Invalid();
  if (candidate.backend() == kGraphRuntime) return Cost::Seconds(1.5e-3 * static_cast<double>(ops));
  return Cost::Zero();
}

inline std::vector<PartitionSpec> LibAndGraphSpecs(const std::set<std::string>& lib_ops,
                                                   const std::set<std::string>& graph_ops) {
  return {MakeOpPredicateSpec(Declare("lib", lib_ops)), MakeOpPredicateSpec(Declare(kGraphRuntime, graph_ops)),
          MakeHostSpec()};
}

// The mock end-to-end latency of a placement (seconds).
struct MockPlanLatency {
  const DataflowGraph* graph = nullptr;
  std::set<std::string> fast_ops;
  double overhead = 1e-3;
  double fast = 0.1e-3;
  double slow = 1.5e-3;
  double library_op = 1e-3;

  double operator()(const std::vector<CandidatePartition>& placement) const {
    double seconds = 0;
    for (const CandidatePartition& candidate : placement) {
      if (candidate.backend() != kGraphRuntime) {
        seconds += library_op * static_cast<double>(OpCount(*graph, candidate));
        continue;
      }
      seconds += overhead;
      for (size_t node : candidate.sub_graph().inside().ToVector()) {
        seconds += fast_ops.count(OpName(*graph, node)) ? fast : slow;
      }
    }
    return seconds;
  }
};

}  // namespace collage::collage_testing
