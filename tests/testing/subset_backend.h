// A test backend: the reference interpreter under another name that declares, and accepts,
// only a subset of the ops (and optionally a pattern table), so placement and execution can be
// tested with several "backends" whose outputs must equal the interpreter's. Compile rejects a
// function calling an op outside the subset, so a wrong placement fails the test.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "backend/backend.h"

namespace collage::testing {

class SubsetBackend final : public Backend {
 public:
  SubsetBackend(std::string name, std::set<std::string> ops, std::vector<BackendPattern> patterns = {},
                bool runs_every_op = false, BackendKind kind = BackendKind::kLibrary);

  std::string name() const override { return name_; }
  BackendKind kind() const override { return kind_; }
  std::string version() const override { return "test"; }
  bool runs_every_op() const override { return runs_every_op_; }
  bool composites_are_only_labels() const override { return composites_are_only_labels_; }
  void set_composites_are_only_labels(bool labels_only) { composites_are_only_labels_ = labels_only; }
  SupportDeclaration Support() const override;
  BackendPerformance Performance() const override { return {}; }
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override;

  // How many functions Compile accepted, and the largest thread count it was given.
  size_t compiled() const { return compiled_; }
  int max_threads() const { return max_threads_; }

 private:
  std::string name_;
  std::set<std::string> ops_;
  std::vector<BackendPattern> patterns_;
  bool runs_every_op_;
  BackendKind kind_;
  bool composites_are_only_labels_ = false;
  mutable size_t compiled_ = 0;
  mutable int max_threads_ = 0;
};

}  // namespace collage::testing
