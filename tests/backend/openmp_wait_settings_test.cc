// The load-time settings of the backends on libgomp's threads: they wait passively after a
// short poll, and a wait policy the user chose is not overridden by a spin count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "backend/openmp_wait_settings.h"

namespace collage {
namespace {

// Sets or unsets one environment variable for the scope, then restores its value.
class ScopedEnvironmentVariable {
 public:
  ScopedEnvironmentVariable(std::string name, const char* value) : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str())) old_ = old;
    if (value) {
      setenv(name_.c_str(), value, 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ~ScopedEnvironmentVariable() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

std::optional<std::string> SettingValue(const std::string& name) {
  for (const LoadTimeSetting& setting : OpenMpWaitSettings()) {
    if (setting.name == name) return setting.value;
  }
  return std::nullopt;
}

TEST(OpenMpWaitSettingsTest, ThreadsPollBrieflyThenSleep) {
  ScopedEnvironmentVariable policy("OMP_WAIT_POLICY", nullptr);
  EXPECT_EQ(SettingValue("OMP_WAIT_POLICY"), "passive");
  const std::optional<std::string> spin_count = SettingValue("GOMP_SPINCOUNT");
  ASSERT_TRUE(spin_count.has_value());
  EXPECT_GT(std::stol(*spin_count), 0);
  EXPECT_LE(std::stol(*spin_count), 100000);  // well under libgomp's 300,000-round default
}

TEST(OpenMpWaitSettingsTest, AWaitPolicyTheUserSetIsNotOverriddenBySpinCount) {
  ScopedEnvironmentVariable policy("OMP_WAIT_POLICY", "active");
  EXPECT_EQ(SettingValue("GOMP_SPINCOUNT"), std::nullopt);
}

TEST(OpenMpWaitSettingsTest, TheBackendsOnOpenMpThreadsDeclareThem) {
  for (const char* name : {"native", "onednn", "xnnpack"}) {
    const BackendPtr backend = BackendRegistry::Global().Find(name);
    if (!backend) continue;  // onednn and xnnpack are optional
    std::vector<std::string> declared;
    for (const LoadTimeSetting& setting : backend->LoadTimeEnvironment()) declared.push_back(setting.name);
    EXPECT_NE(std::find(declared.begin(), declared.end(), "OMP_WAIT_POLICY"), declared.end()) << name;
  }
}

}  // namespace
}  // namespace collage
