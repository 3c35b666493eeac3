// The names of a model's results, as `collage run --outputs` writes them and the public API
// returns them: "output" for a single tensor, else "output0", "output1", ... for the tensors of
// a tuple result, flattened depth-first.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "support/value.h"

namespace collage {

std::vector<std::pair<std::string, Tensor>> NameOutputs(const Value& result);

}  // namespace collage
