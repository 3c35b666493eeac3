// The `openblas` backend: matrix products (nn.dense, nn.matmul, nn.batch_matmul) on f32
// through cblas_sgemm, each with an optional fused bias epilogue. It declares the products
// by op predicate and the product-plus-bias pairs in a small pattern table.
#pragma once

#include "backend/backend.h"

namespace collage {

class OpenblasBackend final : public Backend {
 public:
  std::string name() const override { return "openblas"; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  // The partition is flattened (Composite calls inlined) and its biases found whatever the labels.
  bool composites_are_only_labels() const override { return true; }
  std::string version() const override;
  std::vector<LoadTimeSetting> LoadTimeEnvironment() const override;
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;
};

}  // namespace collage
