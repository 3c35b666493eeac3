// Loads the MODEL argument of the CLI commands: a text-IR file (any name not ending in
// .onnx) is parsed and type-checked; an .onnx file goes to the ONNX importer. `collage import`
// prints the module as loaded; the commands that place it run the standard passes first.
#pragma once

#include <string>

#include "ir/module.h"

namespace collage::cli {

// An ONNX graph input that has an initializer (its default value) becomes that constant, which
// a note on stderr says. Throws Error naming the file when it is missing or unreadable, and the parser's or type
// checker's one-line error ("file:line:col: ...") when it is malformed or ill-typed.
Module LoadModel(const std::string& path);

// The model that run, partition and bench place and compile: LoadModel's module after
// StandardPipeline (batch norms folded into the preceding convolution's weights, dropout
// removed, common subexpressions merged, dead code removed), as DESIGN §2 orders it.
Module LoadModelForPlacement(const std::string& path);

}  // namespace collage::cli
