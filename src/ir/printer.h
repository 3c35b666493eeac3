// The text format printer. The format is documented in docs/TEXT_FORMAT.md; Parse(Print(x))
// is structurally equal to x.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "ir/expr.h"
#include "ir/module.h"

namespace collage {

struct PrintOptions {
  // Print ": Tensor[...]" after each binding whose checked type is known.
  bool show_types = true;
  // Constants with more elements than this print as `constant(meta[i], Type)` without their
  // values (such text is not parseable without the values); others print their values.
  int64_t max_inline_constant_elements = std::numeric_limits<int64_t>::max();
};

std::string PrintModule(const Module& module, const PrintOptions& options = {});
// A function prints as `def @<name>(...) {...}`.
std::string PrintFunction(const Function& function, const std::string& name = "main",
                          const PrintOptions& options = {});

}  // namespace collage
