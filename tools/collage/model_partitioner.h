// Places a whole model with the Collage partitioner, as `collage partition` and `collage
// bench` do: phase 1 from the registry (one spec per listed backend from its declaration,
// plus the host), the chosen cost model, then Partition per function of the module.
//
// Cost models: "analytic" (each backend's roofline, no measurement) and "measured" (every
// candidate timed by a worker process, costs kept in the cost database, and a transition
// penalty from the measured copy bandwidth).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collage/partitioner.h"
#include "plan_file.h"
#include "tuning/measured_cost_estimator.h"

namespace collage::cli {

struct PartitionRequest {
  std::string model_path;
  std::vector<std::string> backends;
  std::string cost_model = "analytic";  // or "measured"
  std::string database_path;            // measured only; "": CostDatabase::DefaultPath()
  int threads = 1;
  bool show_progress = true;
};

struct ModelPlacement {
  Plan plan;
  // Per function of the module, in module order: its name, its original function and the
  // partitioner's result (with the explanation).
  struct FunctionPlacement {
    std::string name;
    Function original;
    PartitionResult result;
  };
  std::vector<FunctionPlacement> functions;
  std::string database_path;              // measured only
  std::optional<TuningStats> tuning;      // measured only
  std::vector<InvalidCandidate> invalid;  // measured only
  double copy_bandwidth = 0;              // measured only: bytes per second
  double seconds = 0;                     // wall time, tuning included

  // One line per partition ("  onednn_0  onednn  3 ops (conv2d+relu)  0.1234 ms") and the
  // total, then the explanation of each function.
  std::string Listing() const;
};

// Throws Error for a model the partitioner cannot place (naming the node and the backends).
ModelPlacement PlaceModel(const Module& model, const PartitionRequest& request);

}  // namespace collage::cli
