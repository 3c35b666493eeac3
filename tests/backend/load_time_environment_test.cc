#include "backend/load_time_environment.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace collage {
namespace {

// A backend that only declares load-time settings.
class SettingsBackend final : public Backend {
 public:
  SettingsBackend(std::string name, std::vector<LoadTimeSetting> settings)
      : name_(std::move(name)), settings_(std::move(settings)) {}
  std::string name() const override { return name_; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  std::string version() const override { return "test"; }
  std::vector<LoadTimeSetting> LoadTimeEnvironment() const override { return settings_; }
  SupportDeclaration Support() const override { return {}; }
  BackendPerformance Performance() const override { return {}; }
  std::unique_ptr<Executable> Compile(const Function&, const CompileOptions&) const override {
    throw Error(name_ + ": compiles nothing");
  }

 private:
  std::string name_;
  std::vector<LoadTimeSetting> settings_;
};

BackendRegistry TwoBackends() {
  BackendRegistry registry;
  registry.Register(std::make_shared<SettingsBackend>(
      "first", std::vector<LoadTimeSetting>{{"POOL_WAIT", "passive"}, {"POOL_TIMEOUT", "16"}}));
  registry.Register(std::make_shared<SettingsBackend>("second", std::vector<LoadTimeSetting>{{"POOL_WAIT", "active"}}));
  return registry;
}

TEST(LoadTimeEnvironmentTest, AddsTheSettingsTheEnvironmentLacks) {
  EXPECT_EQ(WithLoadTimeEnvironment({"HOME=/root"}, TwoBackends()),
            (std::vector<std::string>{"HOME=/root", "POOL_WAIT=passive", "POOL_TIMEOUT=16"}));
}

TEST(LoadTimeEnvironmentTest, AVariableAlreadySetKeepsItsValue) {
  EXPECT_EQ(WithLoadTimeEnvironment({"POOL_TIMEOUT=30", "POOL_WAIT_X=1"}, TwoBackends()),
            (std::vector<std::string>{"POOL_TIMEOUT=30", "POOL_WAIT_X=1", "POOL_WAIT=passive"}));
}

TEST(LoadTimeEnvironmentTest, TheTestProcessRunsUnderTheBuildsSettings) {
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    for (const LoadTimeSetting& setting : backend->LoadTimeEnvironment()) {
      EXPECT_NE(std::getenv(setting.name.c_str()), nullptr) << backend->name() << ": " << setting.name;
    }
  }
}

}  // namespace
}  // namespace collage
