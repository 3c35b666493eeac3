// The `xnnpack` backend: a graph runtime. Each partition becomes one XNNPACK subgraph
// (XNNPACK fuses clamps and plans memory itself) whose runtime is created once at compile time
// with packed weights; each Run invokes it on the caller's NHWC buffers or on staging
// (xnnpack_executable.h). Computes in NHWC and converts 4-D tensors at the partition boundary
// unless it is NHWC. f32 only.
#pragma once

#include "backend/backend.h"

namespace collage {

class XnnpackBackend final : public Backend {
 public:
  std::string name() const override { return "xnnpack"; }
  BackendKind kind() const override { return BackendKind::kGraphRuntime; }
  std::string version() const override;
  // Its parallel loops run on libgomp's threads (openmp_thread_pool.h).
  std::vector<LoadTimeSetting> LoadTimeEnvironment() const override;
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;
};

}  // namespace collage
