// Test backends for measured tuning, each running only the ops it is given and failing in
// one way: its Compile throws, its executable never returns, its executable aborts the
// process, or it is killed with SIGKILL as the out-of-memory killer would kill it; or it is
// merely slow: 20 ms more per run, and it says so in its stated speed. With a
// well-behaved one they make the registry of the test measurement worker
// (measure_worker_main.cc) and of the tests that tune against it.
#pragma once

#include <set>
#include <string>

#include "backend/backend.h"

namespace collage::testing {

enum class Fault { kNone, kCompileFails, kHangs, kCrashes, kKilled, kSlow };

class FaultyBackend final : public Backend {
 public:
  FaultyBackend(std::string name, std::set<std::string> ops, Fault fault);

  std::string name() const override { return name_; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  std::string version() const override { return "test"; }
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override;
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;

 private:
  std::string name_;
  std::set<std::string> ops_;
  Fault fault_;
};

// The ops the test worker's faulty backends run.
inline const std::set<std::string> kFaultyBackendOps = {"nn.relu", "add", "multiply", "tanh", "nn.dense"};

// "good" (no fault), "failing", "hanging", "crashing", "killed" and "slow", each running `ops`.
void RegisterFaultyBackends(BackendRegistry& registry, const std::set<std::string>& ops);

}  // namespace collage::testing
