#include "shape_option.h"

#include "collage/error.h"
#include "collage/model.h"

namespace collage::cli {

OptionSpec ShapeOptionSpec() {
  return {{"--shape"},
          "NAME=DIMS",
          "bind the shape of ONNX graph input NAME, e.g. input=1x3x224x224 (its symbolic dimensions); repeatable",
          /*repeatable=*/true};
}

api::InputShapes ReadShapeBindings(const ParsedArguments& arguments, const std::string& command) {
  api::InputShapes shapes;
  for (const std::string& text : arguments.Values("--shape")) {
    std::pair<std::string, std::vector<int64_t>> binding;
    CheckForCommand(command, [&] { binding = api::ParseInputShape(text); });
    if (!shapes.emplace(binding).second) {
      throw UsageError("--shape names input '" + binding.first + "' twice", command);
    }
  }
  return shapes;
}

}  // namespace collage::cli
