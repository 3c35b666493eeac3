// A module: named global functions in insertion order, "main" first when present.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace collage {

class Module {
 public:
  Module() = default;
  explicit Module(Function main) { Add("main", std::move(main)); }

  // Adds or replaces a function; "main" is kept first.
  void Add(const std::string& name, Function function);
  bool Has(const std::string& name) const;
  // Throws Error naming the function when absent.
  const Function& Get(const std::string& name) const;
  const Function& main() const { return Get("main"); }
  const std::vector<std::pair<std::string, Function>>& functions() const { return functions_; }

 private:
  std::vector<std::pair<std::string, Function>> functions_;
};

}  // namespace collage
