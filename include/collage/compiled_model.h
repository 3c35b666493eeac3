// A model placed on backends and compiled: run it on named or positional tensors, read its
// placement, save the plan, write the HTML placement report.
//
//   collage::api::Model model = collage::api::Model::Load("resnet18.onnx");
//   collage::api::CompileOptions options;
//   options.backends = {"onednn", "native"};
//   collage::api::CompiledModel compiled = collage::api::Compile(model, options);
//   std::vector<collage::api::NamedTensor> outputs =
//       compiled.Run({{"input", collage::api::Tensor::Borrow(ElementType::kFloat32, {1, 3, 224, 224}, pixels)}});
//
// Errors: UsageError (bad options, inputs of the wrong name, type or shape), ModelError (a
// model or plan that cannot be loaded or placed), BackendError (a partition that fails to
// compile or run), each with the `collage` tool's one-line message.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/compile_options.h"
#include "collage/model.h"
#include "collage/tensor.h"

namespace collage::api {

// One partition of the placement: a function the executor runs on one backend.
struct PartitionInfo {
  std::string symbol;   // its global_symbol, "onednn_0"
  std::string backend;  // "onednn"
  std::vector<std::string> ops;  // the op calls inside it, in dataflow order ("nn.conv2d", ...)
  std::string layout;            // the boundary layout of its rank-4 values: "plain", "nhwc", "nchw8c", ...,
                                 // or "plain>nchw8c": parameters in one, results in another
  double estimated_ms = 0;       // the placement search's estimate
  std::optional<double> measured_ms;  // the median of its runs so far; none before the first Run
};

struct Placement {
  std::vector<std::string> backends;  // as listed, in priority order
  CostModel cost = CostModel::kAnalytic;
  std::vector<PartitionInfo> partitions;
  double estimated_total_ms = 0;
  // One line per partition ("  onednn_0  onednn [nhwc]  3 ops (nn.conv2d, add, nn.relu)  0.1234 ms est.")
  // and the total.
  std::string ToString() const;
};

// What the placement search did, for a caller's log; CompiledModel::search() of a compiled
// (not loaded or greedily placed) model.
struct SearchSummary {
  // One line per partition and the total, then the partitioner's explanation of each function:
  // what `collage partition` prints first.
  std::string listing;
  double seconds = 0;  // wall time of the search, tuning included
  // Measured costs only: the tuning's one-line account ("42 candidates: 40 measured, ..."), how
  // many candidates it measured, the cost database it read and wrote, and the candidates it
  // found invalid (a description and why).
  std::optional<std::string> tuning;
  size_t measured_candidates = 0;
  // Of those, costs found in the database but measured again: they had been timed while the
  // machine was busier than it is now.
  size_t busier_machine_candidates = 0;
  // How many cores other processes kept busy on average while candidates were timed (0 when it
  // could not be read); above a quarter of a core, the tuning line warns that timings may be too slow.
  double other_processes_cores = 0;
  std::string cost_database;
  struct InvalidCandidate {
    std::string description;
    std::string reason;
  };
  std::vector<InvalidCandidate> invalid;
  // Measured costs only: the hand-over cost the search charged between each ordered pair of
  // backends (a partition running right after another backend's, over after its own).
  struct HandOver {
    std::string producer;
    std::string consumer;
    double seconds = 0;
  };
  std::vector<HandOver> hand_overs;
  // Measured costs only: per function, "@main: " and how its searched placement compared with
  // the backends' whole regions ("searched 4.4 ms, all xnnpack 3.78 ms: all xnnpack is kept").
  std::vector<std::string> whole_regions;
  // The op-level search's plan: the final one, unless the graph stage replaced it.
  size_t op_level_partitions = 0;
  double op_level_estimated_ms = 0;
  // SearchLevel::kGraph: what the graph stage did per function, and the final interleaved
  // measurement that decided between the op-level plan and its finalists.
  std::vector<std::string> graph_stage;
  std::optional<std::string> graph_stage_decision;
  // Precision::kAuto: what the precision stage did.
  struct PrecisionStage {
    std::string summary;  // a few lines, each ending in a newline
    double tolerance = 0;
    AccuracyMetric metric = AccuracyMetric::kRelativeL2;
    size_t reduced_partitions = 0;  // of the final plan
    double calibration_error = 0;
    double check_error = 0;  // on inputs disjoint from the calibration's
  };
  std::optional<PrecisionStage> precision;
};

// The executor's profile of the runs since the last ClearProfile.
struct RunProfile {
  std::string table;  // one row per partition: calls, median ms, ... (as `collage run --profile` prints it)
  size_t arena_bytes = 0;          // activation memory planned
  size_t bytes_without_reuse = 0;  // what it would take without reusing buffers
};

// How a run's outputs compare with the reference interpreter's on the same inputs.
struct ReferenceCheck {
  bool ok = false;
  // "max abs error: 1e-06, relative to the output's magnitude: 2e-07", or for a plan with
  // reduced-precision partitions "reduced-precision plan: rel-l2 0.0042 against the reference, ...".
  std::string summary;
  // When not ok: "3 elements differ from the reference; first: ..." (or the summary).
  std::string failure;
};

// A reduced-precision plan's outputs are held to a tolerance by a metric: the plan's unless
// given here.
struct ReferenceCheckOptions {
  std::optional<double> tolerance;
  std::optional<AccuracyMetric> metric;
};

class CompiledModel {
 public:
  // The parameters of the placed @main, in order.
  std::vector<TensorInfo> inputs() const;
  // Runs @main once. Inputs whose element type and shape match the parameter are used in place
  // (a borrowed buffer is not copied). Outputs are named "output" (one result) or "output0",
  // "output1", ... (the tensors of a tuple result, flattened), as `collage run --outputs` names
  // them. One Run at a time per compiled model.
  std::vector<NamedTensor> Run(const std::vector<NamedTensor>& inputs);
  std::vector<NamedTensor> Run(const std::vector<Tensor>& inputs);

  // Seeded random inputs for the parameters, in order (the tool's `run --seed`).
  std::vector<Tensor> RandomInputs(uint64_t seed) const;
  // The arrays of an .npz file (ReadNpz) in parameter order; a missing, extra or mistyped array
  // is a UsageError naming `file`.
  std::vector<Tensor> InputsFromArrays(const std::vector<NamedTensor>& arrays, const std::string& file) const;
  // Runs the model as loaded (before the standard passes) in the reference interpreter on
  // `inputs` and compares `outputs` (those Run returned for them) with its results: element by
  // element relative to each output's magnitude, or for a reduced-precision plan by its metric.
  ReferenceCheck CheckAgainstReference(const std::vector<Tensor>& inputs, const std::vector<NamedTensor>& outputs,
                                       const ReferenceCheckOptions& options = {}) const;
  // Whether some partition of the plan computes in a reduced precision.
  bool reduced_precision() const;

  RunProfile Profile() const;
  void ClearProfile();

  Placement placement() const;
  // None for a model from LoadPlan or PlaceGreedily.
  std::optional<SearchSummary> search() const;
  int threads() const;
  // The plan file `collage partition -o` writes (`collage run --plan` and LoadPlan read it).
  void SavePlan(const std::string& path) const;
  // Runs the placed model on seeded random inputs (warm-up, then timed runs) and writes the
  // HTML placement report `collage partition --report` writes. Needs the placement search's
  // alternatives: a model from LoadPlan or PlaceGreedily has none (UsageError).
  void WriteReport(const std::string& path) const;

  struct State;  // the placement and the executor; defined by the library
  explicit CompiledModel(std::shared_ptr<State> state) : state_(std::move(state)) {}
  State& state() const { return *state_; }

 private:
  std::shared_ptr<State> state_;
};

// Runs the standard passes, places the model as `options` say and compiles every partition.
CompiledModel Compile(const Model& model, const CompileOptions& options = {});

// Places the model as Compile does without compiling the partitions: they compile on the first
// Run. For a caller that reads the placement, saves the plan or writes the report.
CompiledModel Place(const Model& model, const CompileOptions& options = {});

// Runs the standard passes and places the model without a search, as classic BYOC does: the
// listed backends take what they support in priority order, the universal fallback the rest
// (the tool's `run --backends`). Partitions compile on the first Run.
CompiledModel PlaceGreedily(const Model& model, const std::vector<std::string>& backends, int threads = 1);

// Compiles the placement of a plan file made for this model (the same model and input shapes;
// otherwise a ModelError naming the plan and the difference) on `threads` threads.
CompiledModel LoadPlan(const Model& model, const std::string& plan_path, int threads = 1);

}  // namespace collage::api
