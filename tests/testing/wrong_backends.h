// Deliberately wrong test backends, the negative controls of every check of a backend's
// results: each is the reference interpreter with one mistake a real backend could make.
// A check that passes any of them on an input exercising the mistake cannot catch that bug.
//  - kSmallNumericError: every floating output is 1.002 times the right one: twice the largest
//    tolerance any check allows (1e-3 of the magnitude), so no rounding can hide it.
//  - kWrongBroadcast: a broadcast operand of a binary elementwise op contributes only its first
//    element (as if its strides were all zero).
//  - kSwappedOutputs: the first two outputs of one type are exchanged.
//  - kOffByOneWindow: convolution and pooling windows start one row early (a row of padding
//    moves from the bottom to the top), which keeps every shape.
// Each runs every op; Compile throws when the function gives its mistake nothing to act on.
#pragma once

#include <string>
#include <vector>

#include "backend/backend.h"

namespace collage::testing {

enum class Mistake { kSmallNumericError, kWrongBroadcast, kSwappedOutputs, kOffByOneWindow };

class WrongBackend final : public Backend {
 public:
  explicit WrongBackend(Mistake mistake) : mistake_(mistake) {}

  // "wrong-small-error", "wrong-broadcast", "wrong-swapped-outputs" or "wrong-window".
  std::string name() const override;
  BackendKind kind() const override { return BackendKind::kLibrary; }
  std::string version() const override { return "test"; }
  bool runs_every_op() const override { return true; }
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override { return {}; }
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;

 private:
  Mistake mistake_;
};

const std::vector<Mistake>& AllMistakes();

// Registers one WrongBackend per mistake.
void RegisterWrongBackends(BackendRegistry& registry);

}  // namespace collage::testing
