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

  Placement placement() const;
  int threads() const;
  // The plan file `collage partition -o` writes (`collage run --plan` and LoadPlan read it).
  void SavePlan(const std::string& path) const;
  // Runs the placed model on seeded random inputs (warm-up, then timed runs) and writes the
  // HTML placement report `collage partition --report` writes. Needs the placement search's
  // alternatives: a model from LoadPlan has none (UsageError).
  void WriteReport(const std::string& path) const;

  struct State;  // the placement and the executor; defined by the library
  explicit CompiledModel(std::shared_ptr<State> state) : state_(std::move(state)) {}
  State& state() const { return *state_; }

 private:
  std::shared_ptr<State> state_;
};

// Runs the standard passes, places the model as `options` say and compiles every partition.
CompiledModel Compile(const Model& model, const CompileOptions& options = {});

// Compiles the placement of a plan file made for this model (the same model and input shapes;
// otherwise a ModelError naming the plan and the difference) on `threads` threads.
CompiledModel LoadPlan(const Model& model, const std::string& plan_path, int threads = 1);

}  // namespace collage::api
