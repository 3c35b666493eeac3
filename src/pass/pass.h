// The pass manager: module passes, function passes, Sequential, and the PassContext that
// decides which passes run (opt level, required and disabled names), carries typed
// options, and notifies instruments before and after each pass.
//
// A pass maps a Module to a new Module and never mutates its input (IR nodes are
// immutable). Passes are values: cheap to copy, composable with Sequential.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/pass_config.h"

namespace collage {

struct PassInfo {
  std::string name;
  int opt_level = 0;  // runs when PassContext::opt_level >= this
};

class PassInstrument;

class PassContext {
 public:
  int opt_level = 2;
  std::set<std::string> required_passes;  // run whatever the opt level
  std::set<std::string> disabled_passes;  // never run (unless required)
  std::vector<std::shared_ptr<PassInstrument>> instruments;

  // Typed options; Set checks the name and kind against PassConfigRegistry.
  void SetConfig(const std::string& name, AttrValue value);
  // The option's value, or its registered default.
  AttrValue GetConfig(const std::string& name) const;
  int64_t GetIntConfig(const std::string& name) const;

  bool ShouldRun(const PassInfo& info) const;

 private:
  std::map<std::string, AttrValue> config_;
};

// Observes pass execution; the defaults do nothing.
class PassInstrument {
 public:
  virtual ~PassInstrument() = default;
  virtual void RunBeforePass(const Module& module, const PassInfo& info) {}
  virtual void RunAfterPass(const Module& module, const PassInfo& info) {}
};

class Pass {
 public:
  using ModuleFunction = std::function<Module(const Module&, const PassContext&)>;
  using FunctionFunction = std::function<Function(const Function&, const Module&, const PassContext&)>;

  // Runs the pass if the context enables it, with instruments around it; otherwise
  // returns the module unchanged.
  Module operator()(const Module& module, const PassContext& context = {}) const;
  const PassInfo& info() const { return info_; }

  static Pass ModulePass(PassInfo info, ModuleFunction run);
  // Applied to every function of the module in turn.
  static Pass FunctionPass(PassInfo info, FunctionFunction run);
  // Runs `passes` in order; each is subject to the context on its own. The sequence itself
  // always runs (opt level 0).
  static Pass Sequential(std::vector<Pass> passes, std::string name = "Sequential");

 private:
  Pass(PassInfo info, ModuleFunction run) : info_(std::move(info)), run_(std::move(run)) {}
  PassInfo info_;
  ModuleFunction run_;
  bool is_sequential_ = false;
};

}  // namespace collage
