#include "pipeline/greedy_run.h"

#include "backend/backend.h"
#include "ir/module.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"

namespace collage {

GreedyRun RunGreedily(const Function& function, const std::vector<Value>& arguments,
                      const std::vector<std::string>& backends, int threads, std::optional<uint64_t> repeat,
                      bool profile) {
  const BackendRegistry& registry = BackendRegistry::Global();
  ExecutorOptions options;
  options.compile.threads = threads;
  options.profile = profile;
  Executor executor(PlaceGreedy(Module(function), backends, registry), registry, options);
  GreedyRun run;
  run.result = executor.Run(arguments);
  if (repeat) {
    executor.ClearProfile();
    for (uint64_t round = 0; round < *repeat; ++round) run.result = executor.Run(arguments);
  }
  if (profile) {
    run.profile_table = executor.profiler()->Table();
    run.arena_bytes = executor.memory_plan().arena_bytes;
    run.bytes_without_reuse = executor.memory_plan().total_bytes;
  }
  return run;
}

}  // namespace collage
