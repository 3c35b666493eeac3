// What a public CompiledModel holds: the model as loaded and after the standard passes, its
// plan, the search's results when it was compiled (not loaded from a plan), and the executor
// that runs it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/compiled_model.h"
#include "ir/module.h"
#include "pipeline/model_partitioner.h"
#include "runtime/executor.h"

namespace collage::api {

struct CompiledModel::State {
  Module loaded;     // the reference interpreter's oracle: the model before the standard passes
  Module optimized;  // after them: what the plan places
  Plan plan;
  // The search's results (for the report and the search summary); none for a model from
  // LoadPlan or PlaceGreedily.
  std::optional<ModelPlacement> placement;
  int threads = 1;
  // Where the buffers of the last Run's inputs lay when they were handed to the executor: what
  // the language bindings' tests compare with their arrays' addresses to see nothing was copied.
  std::vector<const void*> last_input_addresses;

  // The plan's module placed greedily on its backends (the host calls on the universal
  // fallback), compiled on the first call, profiled.
  Executor& executor();
  // The executor when it has been compiled; null before.
  const Executor* compiled_executor() const { return executor_.get(); }

 private:
  std::unique_ptr<Executor> executor_;
};

// A compiled model of `plan` (made for `model`, checked by the caller) whose partitions compile
// on first use.
CompiledModel MakeCompiledModel(const Model& model, Module optimized, Plan plan,
                                std::optional<ModelPlacement> placement, int threads);

}  // namespace collage::api
