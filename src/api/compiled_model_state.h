// What a public CompiledModel holds: the placed module, its plan, the search's results when it
// was compiled (not loaded from a plan), and the executor that runs it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/compiled_model.h"
#include "pipeline/model_partitioner.h"
#include "runtime/executor.h"

namespace collage::api {

struct CompiledModel::State {
  Plan plan;
  // The search's results (for the report); none for a model from LoadPlan.
  std::optional<ModelPlacement> placement;
  int threads = 1;
  // The plan's module placed greedily on its backends (the host calls on the universal
  // fallback), compiled once, profiled.
  std::unique_ptr<Executor> executor;
  // Where the buffers of the last Run's inputs lay when they were handed to the executor: what
  // the language bindings' tests compare with their arrays' addresses to see nothing was copied.
  std::vector<const void*> last_input_addresses;
};

// Compiles `plan` (made for the model, checked by the caller) into a compiled model.
CompiledModel MakeCompiledModel(Plan plan, std::optional<ModelPlacement> placement, int threads);

}  // namespace collage::api
