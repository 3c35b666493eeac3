// Loads a model: a text-IR file (any name not ending in
// .onnx) is parsed and type-checked; an .onnx file goes to the ONNX importer, with its graph
// inputs bound as the caller says. `collage import` prints the module as loaded; the
// commands that place it run the standard passes first.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/module.h"
#include "support/shape.h"
#include "support/tensor.h"

namespace collage {

// What a caller binds in an ONNX model's graph inputs: shapes (symbolic dimensions; the
// CLI's `--shape NAME=DIMS`), and values (the CLI's `run --inputs`), whose shapes bind symbolic
// dimensions and whose values bind inputs that must be known at import time (a shape, axes,
// pads, sizes: specialization).
struct ModelBindings {
  std::map<std::string, Shape> shapes;
  std::map<std::string, Tensor> values;

  bool empty() const { return shapes.empty() && values.empty(); }
};

struct LoadedModel {
  Module module;
  // Graph inputs bound to their given values: constants in `module`, not parameters.
  std::vector<std::string> bound_inputs;
  // An ONNX model's graph output names, those of @main's results in order; empty for text IR.
  std::vector<std::string> output_names;
};

// An ONNX graph input that has an initializer (its default value) becomes that constant, which
// a note on stderr says. Throws Error naming the file when it is missing or unreadable, and the parser's, importer's
// or type checker's one-line error ("file:line:col: ...") when it is malformed or ill-typed;
// bindings for a text-IR model are an Error (its shapes are static).
LoadedModel LoadModelWithBindings(const std::string& path, const ModelBindings& bindings);
Module LoadModel(const std::string& path, const ModelBindings& bindings = {});

// The model that run, partition and bench place and compile: LoadModel's module after
// StandardPipeline (batch norms folded into the preceding convolution's weights, dropout
// removed, common subexpressions merged, dead code removed), in that order.
Module LoadModelForPlacement(const std::string& path, const ModelBindings& bindings = {});

}  // namespace collage
