#include "testing/subset_backend.h"

#include <algorithm>

#include "backend/reference/reference_backend.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"

namespace collage::testing {

SubsetBackend::SubsetBackend(std::string name, std::set<std::string> ops, std::vector<BackendPattern> patterns,
                             bool runs_every_op, BackendKind kind)
    : name_(std::move(name)), ops_(std::move(ops)), patterns_(std::move(patterns)), runs_every_op_(runs_every_op),
      kind_(kind) {}

SupportDeclaration SubsetBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name_;
  declaration.supports_op = [ops = ops_](const CallNode& call) { return ops.count(call.op()->name) > 0; };
  declaration.patterns = patterns_;
  return declaration;
}

std::unique_ptr<Executable> SubsetBackend::Compile(const Function& function, const CompileOptions& options) const {
  if (!runs_every_op_) {
    for (const Expr& node : PostOrder(function)) {
      const auto* call = As<CallNode>(node);
      if (call != nullptr && call->op() != nullptr && !ops_.count(call->op()->name)) {
        throw Error(name_ + " does not run " + call->op()->name);
      }
    }
  }
  std::unique_ptr<Executable> executable = ReferenceBackend().Compile(function, options);
  ++compiled_;
  max_threads_ = std::max(max_threads_, options.threads);
  return executable;
}

}  // namespace collage::testing
