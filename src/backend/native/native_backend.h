// The `native` backend: our own fusing code generator and the universal fallback. It runs
// FuseOps over the function it is given, emits one C++ kernel per group (element-wise and
// injective chains as one loop nest, anchors with their fused epilogues, reduction rows),
// compiles them with the system compiler into cached shared objects and runs the groups in
// order. Every registry op is accepted.
#pragma once

#include "backend/backend.h"
#include "backend/native/compiler_driver.h"

namespace collage {

class NativeBackend final : public Backend {
 public:
  NativeBackend() = default;
  // A backend with its own compiler settings (tests use a failing compiler).
  explicit NativeBackend(native::CompilerConfig config) : config_(std::move(config)) {}

  std::string name() const override { return "native"; }
  BackendKind kind() const override { return BackendKind::kCodeGenerator; }
  // FuseOps runs inside Compile, so any function of op calls compiles: the universal fallback.
  bool runs_every_op() const override { return true; }
  std::string version() const override;
  // Its parallel loops run on libgomp's threads (parallel_chunks.h).
  std::vector<LoadTimeSetting> LoadTimeEnvironment() const override;
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;
  std::vector<CompileResult> CompileAll(const std::vector<Function>& functions,
                                        const CompileOptions& options) const override;

 private:
  native::CompilerConfig config_;
};

// The decomposed forms (pass/fused_forms) whose fused ops the native generator computes with
// fewer kernels or operations than their parts; CompileAll fuses them before planning.
const std::vector<std::string>& NativeFusedForms();

}  // namespace collage
