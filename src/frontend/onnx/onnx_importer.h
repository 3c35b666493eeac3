// Imports an ONNX model (opsets 11 to 17 of the default domain) into a type-checked IR module.
//
// Initializers become constants, graph inputs become the parameters of @main (in graph input
// order, named as in the model) with static shapes (a graph input named twice or of element
// type DOUBLE is an error; one with an initializer of the same name is that constant), and
// shape computations on static values (Shape, Gather, Unsqueeze, Concat, ConstantOfShape,
// Range, ...) are folded to constants, so the module is fully static. @main returns the single graph output, or a tuple of the
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

namespace collage {

struct OnnxImportOptions {
  // Static shapes for graph inputs by name, replacing the model's (possibly dynamic) shape;
  // the CLI's `--input-shape NAME=1x3x224x224`.
  std::map<std::string, Shape> input_shapes;
  // Largest tensor (in bytes) that import may create by folding or from a constant-of-shape;
  // a larger one is an error rather than an allocation.
  int64_t max_folded_bytes = int64_t{1} << 30;
};

struct OnnxModel {
  Module module;                          // @main, type-checked
  std::vector<std::string> input_names;   // ONNX names of @main's parameters, in order
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

// Parses "NAME=1x3x224x224" (dimensions separated by 'x' or ','; "NAME=" is a scalar);
// throws Error naming the text when malformed.
std::pair<std::string, Shape> ParseInputShapeOverride(std::string_view text);

// The ONNX op types the importer converts, sorted.
std::vector<std::string> SupportedOnnxOps();

}  // namespace collage
