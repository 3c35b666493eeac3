// Cost estimation of candidate partitions.
//
//   CostEstimator          the interface the search asks;
//   MockCostEstimator      costs from a user function (unit tests);
//   AnalyticCostEstimator  a per-backend roofline on FLOPs and bytes moved, deterministic,
//                          computed from the candidate's nodes (no function is built: it
//                          costs less than a cache lookup would).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend_performance.h"
#include "collage/candidate_partition.h"

namespace collage {

class CostEstimator {
 public:
  virtual ~CostEstimator() = default;
  virtual Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) = 0;
  // Called with every candidate of a search before the search asks for costs, so that an
  // estimator can cost them all at once (batching, parallel compilation, a progress bar).
  virtual void Prepare(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) {
    (void)graph;
    (void)candidates;
  }
  // Costs `candidates` again, more carefully than a search can afford for every candidate, for
  // the few a decision hinges on: an estimator that times (where one timing in a moment of
  // contention can be several times too slow) times each several times and keeps the fastest.
  // Later estimates return the confirmed costs; a candidate that kept a cost keeps it until it
  // forgets it (CandidatePartition::ForgetCost). Deterministic estimators have nothing to do.
  virtual void Confirm(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) {
    (void)graph;
    (void)candidates;
  }
};

class MockCostEstimator final : public CostEstimator {
 public:
  using CostFunction = std::function<Cost(const DataflowGraph& graph, const CandidatePartition& candidate)>;
  explicit MockCostEstimator(CostFunction cost_function) : cost_function_(std::move(cost_function)) {}
  Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) override;
  size_t calls() const { return calls_; }

 private:
  CostFunction cost_function_;
  size_t calls_ = 0;
};

// Structural-hash-keyed memo of costs of extracted candidate functions per backend.
class CostCache {
 public:
  // The cached cost of `function` on `backend`, or the result of `compute`, then cached.
  Cost Lookup(const Function& function, const std::string& backend, const std::function<Cost()>& compute);
  // The cached cost, or nullopt.
  std::optional<Cost> Find(const Function& function, const std::string& backend);
  // Caches `cost`, replacing the cost cached for the same function and backend.
  void Insert(const Function& function, const std::string& backend, Cost cost);
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  std::map<std::pair<size_t, std::string>, std::vector<std::pair<Function, Cost>>> entries_;
  size_t hits_ = 0;
  size_t misses_ = 0;
};

class AnalyticCostEstimator final : public CostEstimator {
 public:
  // Candidates of a backend missing from the table are Invalid.
  explicit AnalyticCostEstimator(std::map<std::string, BackendPerformance> backends)
      : backends_(std::move(backends)) {}
  Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) override;
  // Tabulates each node's compute time per backend and value bytes for `graph`, which later
  // estimates of its candidates sum instead of re-deriving them from the types.
  void Prepare(const DataflowGraph& graph, const std::vector<CandidatePartition>& candidates) override;

  // The FLOPs of one type-checked op call (2 per multiply-add for dense, batch_matmul and
  // conv2d; otherwise the larger of the input and output element counts).
  static double Flops(const CallNode& call);
  // The model knows one layout: a candidate whose boundary is in another is charged for
  // converting its boundary tensors there and back (read and write each at the memory
  // bandwidth), so such candidates never win on analytic costs alone.
  static double BoundaryConversionSeconds(const DataflowGraph& graph, const CandidatePartition& candidate,
                                          const BackendPerformance& performance);

 private:
  // Per node of the prepared graph: the op call's compute seconds on one backend (NaN where the
  // backend cannot run the op, kNoCompute where the node is no op call), and its value's bytes.
  struct NodeTable {
    Expr body;  // holds the graph's body, so that no other graph's body has its address
    std::map<std::string, std::vector<double>, std::less<>> compute_seconds;
    std::vector<double> value_bytes;
  };
  static constexpr double kNoCompute = -1;
  static double ComputeSeconds(const DataflowNode& node, const BackendPerformance& performance);
  Cost Roofline(const DataflowGraph& graph, const SubGraph& sub_graph, const std::string& backend,
                const BackendPerformance& performance) const;

  std::map<std::string, BackendPerformance> backends_;
  NodeTable table_;
};

}  // namespace collage
