// Imports an ONNX model (opsets 1 to 17 of the default domain) into a type-checked IR module.
// Converters follow each op's semantics at the model's opset where they changed (Softmax's
// 2-D coercion, attributes that became inputs) and refuse the versions they do not implement
// (legacy 'broadcast' and is_test attributes before opset 7, Tile before 6, Resize before 11).
//
// Initializers become constants, graph inputs become the parameters of @main (in graph input
// order, named as in the model) with static shapes, except those specialized to given values
// (OnnxImportOptions::input_values); a graph input named twice is an error, and one with an
// initializer of the same name is that constant. Element types keep their width (DOUBLE is
// f64). Shape computations on static values (Shape, Gather, Unsqueeze, Concat,
// ConstantOfShape, Range, ...) are folded to constants, so the module is fully static. @main returns the single graph output, or a tuple of the
// outputs in graph order.
//
// Every failure is a collage::Error with a one-line message that starts with the file name
// and, where a node is at fault, names the node, its op type, domain and opset, e.g.
//   "m.onnx: node 'conv1' (Conv, domain 'ai.onnx', opset 13): 'pads' must have 4 values, got 3".
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "support/shape.h"
#include "support/tensor.h"

namespace collage {

struct OnnxImportOptions {
  // Shapes of graph inputs by name, binding the model's symbolic dimensions (static ones must
  // agree); the CLI's `--shape NAME=1x3x224x224`. Without one, a graph input with a value in
  // input_values takes that value's shape.
  std::map<std::string, Shape> input_shapes;
  // Values of graph inputs known at load time (the CLI's --inputs). A graph input that an
  // argument which must be known at import time depends on (a shape, axes, pads, repeats,
  // sizes) becomes a constant of its value here (specialization); the others stay parameters.
  // Without its value such an input is an error naming it.
  std::map<std::string, Tensor> input_values;
  // Largest tensor (in bytes) that import may create by folding or from a constant-of-shape;
  // a larger one is an error rather than an allocation.
  int64_t max_folded_bytes = int64_t{1} << 30;
};

struct OnnxModel {
  Module module;                          // @main, type-checked
  std::vector<std::string> input_names;   // ONNX names of @main's parameters, in order
  std::vector<std::string> specialized_inputs;  // graph inputs bound to their input_values, in graph order
  std::vector<std::string> output_names;  // ONNX names of @main's results, in order
  int64_t opset = 0;                      // opset of the default domain
  // Graph inputs that have an initializer of the same name in a model of IR version 4 or
  // later, where the initializer is only the input's default value: they were imported as
  // constants with that value, not as parameters (callers tell the user).
  std::vector<std::string> inputs_with_initializers;
};

// Reads and imports a .onnx file; an unreadable file is an Error naming it.
OnnxModel ImportOnnxFile(const std::string& path, const OnnxImportOptions& options = {});
// Imports a serialized ModelProto; `file_name` prefixes error messages.
OnnxModel ImportOnnxBytes(std::span<const std::byte> bytes, const std::string& file_name,
                          const OnnxImportOptions& options = {});

// Parses --shape's "NAME=1x3x224x224" (dimensions separated by 'x' or ','; "NAME=" is a scalar);
// throws Error naming the text when malformed.
std::pair<std::string, Shape> ParseInputShapeOverride(std::string_view text);

// The ONNX op types the importer converts, sorted.
std::vector<std::string> SupportedOnnxOps();

}  // namespace collage
