#include "shape_option.h"

#include "frontend/onnx/onnx_importer.h"
#include "support/error.h"

namespace collage::cli {

OptionSpec ShapeOptionSpec() {
  return {{"--shape"},
          "NAME=DIMS",
          "bind the shape of ONNX graph input NAME, e.g. input=1x3x224x224 (its symbolic dimensions); repeatable",
          /*repeatable=*/true};
}

ModelBindings ReadShapeBindings(const ParsedArguments& arguments, const std::string& command) {
  ModelBindings bindings;
  for (const std::string& text : arguments.Values("--shape")) {
    std::pair<std::string, Shape> binding;
    try {
      binding = ParseInputShapeOverride(text);
    } catch (const Error& error) {
      throw UsageError(error.what(), command);
    }
    if (!bindings.shapes.emplace(binding).second) {
      throw UsageError("--shape names input '" + binding.first + "' twice", command);
    }
  }
  return bindings;
}

}  // namespace collage::cli
