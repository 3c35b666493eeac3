// The executor: runs a partitioned, type-checked module's @main on compiled
// partitions, compiling once and running any number of times.
//
// Construction lowers @main to an ExecutionPlan, compiles every step with its backend (all
// partitions of one backend in one CompileAll call; host calls with the registry's universal
// fallback; partitions found in the options' ExecutableCache are not compiled again), plans
// the activations into one arena (memory_planner.h) and allocates it. Run binds the
// arguments, calls each step's Executable::Run in dataflow order on arena tensors and returns
// copies of the results. Run is not reentrant: one run at a time per executor.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "ir/module.h"
#include "runtime/executable_cache.h"
#include "runtime/memory_planner.h"
#include "runtime/profiler.h"
#include "support/value.h"

namespace collage {

struct ExecutorOptions {
  CompileOptions compile;  // threads and cache folder, passed to every backend
  bool profile = false;    // time every step's Run into profiler()
  // When set, partitions compiled before are taken from it and new ones are added to it; the
  // executors sharing it must not run at the same time (executable_cache.h).
  ExecutableCache* cache = nullptr;
};

class Executor {
 public:
  // Throws Error when a partition names a backend `registry` lacks ("partition <global_symbol>:
  // unknown backend ..."), or a backend cannot compile its partition ("partition
  // <global_symbol>: backend '<name>' cannot compile it: <why>").
  Executor(const Module& module, const BackendRegistry& registry, const ExecutorOptions& options = {});
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // One value per parameter of @main, of its type; throws Error naming the parameter otherwise.
  Value Run(const std::vector<Value>& arguments);

  const MemoryPlan& memory_plan() const;
  // Compiled calls: partitions and host calls.
  size_t num_steps() const;
  // The timings of every run so far; null unless options.profile.
  const Profiler* profiler() const;
  // Forgets the timings of the runs so far (warm-up runs); nothing to forget unless options.profile.
  void ClearProfile();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace collage
