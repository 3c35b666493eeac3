// The `native` backend: our own fusing code generator and the universal fallback. It runs
// FuseOps over the function it is given, emits one C++ kernel per group (element-wise and
// injective chains as one loop nest, anchors with their fused epilogues, reduction rows),
// compiles them with the system compiler into cached shared objects and runs the groups in
// order. Every registry op is accepted.
#pragma once

#include <map>

#include "backend/backend.h"
#include "backend/native/compiler_driver.h"
#include "pattern/pattern_matcher.h"

namespace collage {

class NativeBackend final : public Backend {
 public:
  NativeBackend() = default;
  // A backend with its own compiler settings (tests use a failing compiler); without
  // `fuse_decomposed_forms` it compiles the decomposed forms op by op (the baseline the fused
  // kernels are measured against).
  explicit NativeBackend(native::CompilerConfig config, bool fuse_decomposed_forms = true)
      : config_(std::move(config)), fuse_decomposed_forms_(fuse_decomposed_forms) {}

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
  bool fuse_decomposed_forms_ = true;
};

// The decomposed forms (pass/fused_forms) whose fused ops the native generator computes with
// fewer kernels or operations than their parts; CompileAll fuses them before planning.
const std::vector<std::string>& NativeFusedForms();

// The longest key sequence the fused attention kernel takes; longer ones stay decomposed.
inline constexpr int64_t kMaxAttentionKeys = 512;

// What the native kernels of some forms need beyond the form (by form name): the fused
// attention takes at most kMaxAttentionKeys keys. Its support patterns refuse the rest too.
const std::map<std::string, MatchPredicate>& NativeFormConditions();

}  // namespace collage
