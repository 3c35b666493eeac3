// The `reference` backend: the reference interpreter behind the backend interface. It runs
// every op, slowly; it is the correctness oracle and never a choice for speed.
#pragma once

#include "backend/backend.h"

namespace collage {

class ReferenceBackend final : public Backend {
 public:
  std::string name() const override { return "reference"; }
  BackendKind kind() const override { return BackendKind::kInterpreter; }
  std::string version() const override { return "1"; }
  bool runs_every_op() const override { return true; }
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;
};

}  // namespace collage
