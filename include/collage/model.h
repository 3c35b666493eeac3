// A model as loaded: an ONNX model (a file or its bytes) or a module in Collage's text IR,
// imported and type-checked, not yet optimized or placed. Loading errors are ModelErrors
// carrying the importer's or parser's one-line message ("model.cir:8:8: nn.dense: ...").
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collage/tensor.h"

namespace collage::api {

// Shapes binding an ONNX model's symbolic input dimensions, by graph input name (the tool's
// --shape NAME=DIMS); static dimensions must agree.
using InputShapes = std::map<std::string, std::vector<int64_t>>;

// What a caller binds in an ONNX model's graph inputs: shapes, and values (the tool's `run
// --inputs`), whose shapes bind symbolic dimensions and whose values bind inputs that must be
// known at import time (a shape, axes, pads, sizes): those become constants (copies), not
// parameters.
struct InputBindings {
  InputShapes shapes;
  std::map<std::string, Tensor> values;
};

// Parses "NAME=1x3x224x224" (dimensions separated by 'x' or ','; "NAME=" is a scalar), the
// tool's --shape; a malformed text is a UsageError naming it.
std::pair<std::string, std::vector<int64_t>> ParseInputShape(std::string_view text);

class Model {
 public:
  // A file: .onnx goes to the ONNX importer, any other name to the text-IR parser (whose shapes
  // are static, so `input_shapes` must be empty for it).
  static Model Load(const std::string& path, const InputShapes& input_shapes = {});
  static Model Load(const std::string& path, const InputBindings& bindings);
  // A serialized ONNX ModelProto; `name` stands for the file in messages and plans.
  static Model FromOnnxBytes(std::string_view bytes, const std::string& name = "model.onnx",
                             const InputShapes& input_shapes = {});
  // A module in the text IR.
  static Model FromText(std::string_view text, const std::string& name = "model.cir");

  // The path or the name it was loaded under.
  const std::string& name() const;
  // The parameters of @main, in order.
  std::vector<TensorInfo> inputs() const;
  // The graph inputs bound to their given values (InputBindings::values): constants of the
  // model, not parameters.
  const std::vector<std::string>& bound_inputs() const;
  // An ONNX model's graph output names: those of CompiledModel::Run's outputs, in order. Empty
  // for a model in the text IR.
  const std::vector<std::string>& output_names() const;
  // The module in the text IR, as `collage import` prints it.
  std::string ToText() const;

  struct State;  // the loaded module; defined by the library
  explicit Model(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  const State& state() const { return *state_; }

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace collage::api
