#include "testing/faulty_backends.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "backend/reference/reference_backend.h"
#include "ir/op_registry.h"

namespace collage::testing {
namespace {

// Runs `inner`, first failing as `fault` says.
class FaultyExecutable final : public Executable {
 public:
  FaultyExecutable(std::unique_ptr<Executable> inner, Fault fault) : inner_(std::move(inner)), fault_(fault) {}
  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    if (fault_ == Fault::kHangs) {
      while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (fault_ == Fault::kCrashes) std::abort();
    if (fault_ == Fault::kKilled) kill(getpid(), SIGKILL);
    if (fault_ == Fault::kSlow) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    inner_->Run(inputs, outputs);
  }

 private:
  std::unique_ptr<Executable> inner_;
  Fault fault_;
};

}  // namespace

FaultyBackend::FaultyBackend(std::string name, std::set<std::string> ops, Fault fault)
    : name_(std::move(name)), ops_(std::move(ops)), fault_(fault) {}

SupportDeclaration FaultyBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name_;
  declaration.supports_op = [ops = ops_](const CallNode& call) { return ops.count(call.op()->name) > 0; };
  return declaration;
}

BackendPerformance FaultyBackend::Performance() const {
  BackendPerformance performance;
  if (fault_ == Fault::kSlow) performance.peak_flops /= 1e4;
  return performance;
}

std::unique_ptr<Executable> FaultyBackend::Compile(const Function& function, const CompileOptions& options) const {
  if (fault_ == Fault::kCompileFails) throw Error(name_ + " compiles nothing (a test backend)");
  return std::make_unique<FaultyExecutable>(ReferenceBackend().Compile(function, options), fault_);
}

void RegisterFaultyBackends(BackendRegistry& registry, const std::set<std::string>& ops) {
  registry.Register(std::make_shared<FaultyBackend>("good", ops, Fault::kNone));
  registry.Register(std::make_shared<FaultyBackend>("failing", ops, Fault::kCompileFails));
  registry.Register(std::make_shared<FaultyBackend>("hanging", ops, Fault::kHangs));
  registry.Register(std::make_shared<FaultyBackend>("crashing", ops, Fault::kCrashes));
  registry.Register(std::make_shared<FaultyBackend>("killed", ops, Fault::kKilled));
  registry.Register(std::make_shared<FaultyBackend>("slow", ops, Fault::kSlow));
}

}  // namespace collage::testing
