// The text format printer. The format is documented in docs/TEXT_FORMAT.md; Parse(Print(x))
// is structurally equal to x.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"

namespace collage {

struct PrintOptions {
  // Print ": Tensor[...]" after each binding whose checked type is known.
  bool show_types = true;
  // Constants with more elements than this print as `constant(meta[i], Type)` without their
  // values (such text is not parseable without the values); others print their values.
  int64_t max_inline_constant_elements = std::numeric_limits<int64_t>::max();
  // When set, receives the data of each constant printed as `meta[K]`, at index K, so that
  // ParseModule(text, file, *meta_table) can restore it. Not owned.
  std::vector<Tensor>* meta_table = nullptr;
};

std::string PrintModule(const Module& module, const PrintOptions& options = {});
// A function prints as `def @<name>(...) {...}`.
std::string PrintFunction(const Function& function, const std::string& name = "main",
                          const PrintOptions& options = {});
// Any expression, for messages and reports: its bindings then the result line; a function
// prints as `fn (...) {...}`. Free variables print by name, so the text may not parse.
std::string PrintExpr(const Expr& expr, const PrintOptions& options = {});

}  // namespace collage
