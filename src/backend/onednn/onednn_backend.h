// The `onednn` backend (oneDNN 2.6): convolutions, matrix products, pooling, element-wise,
// normalization and concatenation on f32, with post-op fusion (bias, residual add,
// activation) declared in its pattern table, blocked layouts inside a partition and reorders
// at its boundaries. Runs on oneDNN's OpenMP threads, CompileOptions::threads of them.
#pragma once

#include "backend/backend.h"

namespace collage {

class OnednnBackend final : public Backend {
 public:
  std::string name() const override { return "onednn"; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  bool optimizes_across_ops() const override { return true; }
  // The partition is flattened (Composite calls inlined) and its post-ops found whatever the labels.
  bool composites_are_only_labels() const override { return true; }
  std::string version() const override;
  std::vector<LoadTimeSetting> LoadTimeEnvironment() const override;
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;
};

}  // namespace collage
