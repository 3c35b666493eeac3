// The option `--shape NAME=DIMS` (repeatable) of import, run, partition and bench: the shapes
// bound in an ONNX model's graph inputs.
#pragma once

#include <string>

#include "arguments.h"
#include "collage/model.h"

namespace collage::cli {

OptionSpec ShapeOptionSpec();
// The --shape values of `arguments`; a malformed one or a name given twice is a UsageError.
api::InputShapes ReadShapeBindings(const ParsedArguments& arguments, const std::string& command);

}  // namespace collage::cli
