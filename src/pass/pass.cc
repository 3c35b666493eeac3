#include "pass/pass.h"

#include "support/error.h"

namespace collage {

void PassContext::SetConfig(const std::string& name, AttrValue value) {
  const PassConfigOption& option = PassConfigRegistry::Global().Get(name);
  if (KindOf(option.default_value) != KindOf(value)) {
    throw Error("pass option '" + name + "' must be of kind " +
                std::string(AttrKindName(KindOf(option.default_value))) + ", got " + AttrValueToString(value));
  }
  config_[name] = std::move(value);
}

AttrValue PassContext::GetConfig(const std::string& name) const {
  auto it = config_.find(name);
  return it != config_.end() ? it->second : PassConfigRegistry::Global().Get(name).default_value;
}

int64_t PassContext::GetIntConfig(const std::string& name) const {
  AttrValue value = GetConfig(name);
  Check(KindOf(value) == AttrKind::kInt, "pass option '" + name + "' is not an int");
  return std::get<int64_t>(value);
}

bool PassContext::ShouldRun(const PassInfo& info) const {
  if (required_passes.count(info.name)) return true;
  if (disabled_passes.count(info.name)) return false;
  return info.opt_level <= opt_level;
}

Module Pass::operator()(const Module& module, const PassContext& context) const {
  if (is_sequential_) return run_(module, context);
  if (!context.ShouldRun(info_)) return module;
  for (const auto& instrument : context.instruments) instrument->RunBeforePass(module, info_);
  Module result = run_(module, context);
  for (const auto& instrument : context.instruments) instrument->RunAfterPass(result, info_);
  return result;
}

Pass Pass::ModulePass(PassInfo info, ModuleFunction run) { return Pass(std::move(info), std::move(run)); }

Pass Pass::FunctionPass(PassInfo info, FunctionFunction run) {
  return Pass(std::move(info), [run = std::move(run)](const Module& module, const PassContext& context) {
    Module result = module;
    for (const auto& [name, function] : module.functions()) result.Add(name, run(function, module, context));
    return result;
  });
}

Pass Pass::Sequential(std::vector<Pass> passes, std::string name) {
  Pass sequence(PassInfo{std::move(name), 0}, [passes](const Module& module, const PassContext& context) {
    Module current = module;
    for (const Pass& pass : passes) current = pass(current, context);
    return current;
  });
  sequence.is_sequential_ = true;
  return sequence;
}

}  // namespace collage
