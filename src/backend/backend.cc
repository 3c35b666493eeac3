#include "backend/backend.h"

#include "support/error.h"

namespace collage {

const char* BackendKindName(BackendKind kind) {
  switch (kind) {
    case BackendKind::kInterpreter:
      return "interpreter";
    case BackendKind::kLibrary:
      return "library";
    case BackendKind::kGraphRuntime:
      return "graph runtime";
    case BackendKind::kCodeGenerator:
      return "code generator";
  }
  return "?";
}

const char* DeviceName(Device device) { return device == Device::kCpu ? "cpu" : "cuda"; }


std::vector<CompileResult> Backend::CompileAll(const std::vector<Function>& functions,
                                               const CompileOptions& options) const {
  std::vector<CompileResult> results;
  results.reserve(functions.size());
  for (const Function& function : functions) {
    CompileResult result;
    try {
      result.executable = Compile(function, options);
    } catch (const Error& error) {
      result.error = error.what();
    }
    results.push_back(std::move(result));
  }
  return results;
}

void BackendRegistry::Register(BackendPtr backend) {
  Check(backend != nullptr, "BackendRegistry::Register: null backend");
  if (Find(backend->name())) throw Error("backend '" + backend->name() + "' is registered twice");
  backends_.push_back(std::move(backend));
}

BackendPtr BackendRegistry::Find(const std::string& name) const {
  for (const BackendPtr& backend : backends_) {
    if (backend->name() == name) return backend;
  }
  return nullptr;
}

BackendPtr BackendRegistry::Get(const std::string& name) const {
  if (BackendPtr backend = Find(name)) return backend;
  std::string available;
  for (const std::string& known : Names()) available += (available.empty() ? "" : ", ") + known;
  throw Error("unknown backend '" + name + "' (available: " + available + ")");
}

std::vector<std::string> BackendRegistry::Names() const {
  std::vector<std::string> names;
  for (const BackendPtr& backend : backends_) names.push_back(backend->name());
  return names;
}

BackendPtr BackendRegistry::UniversalFallback() const {
  BackendPtr fallback;
  for (const BackendPtr& backend : backends_) {
    if (!backend->runs_every_op()) continue;
    if (backend->kind() != BackendKind::kInterpreter) return backend;
    if (!fallback) fallback = backend;
  }
  if (!fallback) throw Error("no registered backend runs every op, so nothing can run what the chosen backends leave");
  return fallback;
}

}  // namespace collage
