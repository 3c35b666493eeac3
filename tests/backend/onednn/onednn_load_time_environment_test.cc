// The onednn backend's load-time settings: libgomp workers wait passively after a short poll,
// and a wait policy the user chose is not overridden by a spin count.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "backend/backend.h"

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

std::optional<std::string> SettingValue(const Backend& backend, const std::string& name) {
  for (const LoadTimeSetting& setting : backend.LoadTimeEnvironment()) {
    if (setting.name == name) return setting.value;
  }
  return std::nullopt;
}

class OnednnLoadTimeEnvironmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  BackendPtr backend_;
};

TEST_F(OnednnLoadTimeEnvironmentTest, WorkersPollBrieflyThenSleep) {
  ScopedEnvironmentVariable policy("OMP_WAIT_POLICY", nullptr);
  EXPECT_EQ(SettingValue(*backend_, "OMP_WAIT_POLICY"), "passive");
  const std::optional<std::string> spin_count = SettingValue(*backend_, "GOMP_SPINCOUNT");
  ASSERT_TRUE(spin_count.has_value());
  EXPECT_GT(std::stol(*spin_count), 0);
  EXPECT_LE(std::stol(*spin_count), 100000);  // well under libgomp's 300,000-round default
}

TEST_F(OnednnLoadTimeEnvironmentTest, AWaitPolicyTheUserSetIsNotOverriddenBySpinCount) {
  ScopedEnvironmentVariable policy("OMP_WAIT_POLICY", "active");
  EXPECT_EQ(SettingValue(*backend_, "GOMP_SPINCOUNT"), std::nullopt);
}

}  // namespace
}  // namespace collage
