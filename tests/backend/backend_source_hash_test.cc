// The build-time hashes of the backends' sources and their place in measured costs' keys.
#include "backend/backend_source_hash.h"

#include <gtest/gtest.h>

#include <set>

#include "all_backends/all_backends.h"
#include "backend/backend.h"
#include "tuning/measured_cost_estimator.h"

namespace collage {
namespace {

bool IsSha256(const std::string& text) {
  return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

TEST(BackendSourceHashTest, EveryRegisteredBackendWithAFolderHasItsOwnHash) {
  BackendRegistry registry;
  RegisterAllBackends(registry);
  std::set<std::string> distinct;
  for (const std::string& name : registry.Names()) {
    const std::string hash = BackendSourceHash(name);
    EXPECT_TRUE(IsSha256(hash)) << name << ": '" << hash << "'";
    distinct.insert(hash);
  }
  EXPECT_EQ(distinct.size(), registry.Names().size());
  EXPECT_TRUE(IsSha256(BackendSourceHash("native")));  // always built
}

TEST(BackendSourceHashTest, ABackendWithoutAFolderHasNone) { EXPECT_EQ(BackendSourceHash("no-such-backend"), ""); }

TEST(BackendSourceHashTest, CostVersionJoinsTheDeclaredVersionAndTheSourceHash) {
  BackendRegistry registry;
  RegisterAllBackends(registry);
  const BackendPtr native = registry.Get("native");
  const std::string version = CostVersion(*native);
  EXPECT_EQ(version.rfind(native->version(), 0), 0u) << version;
  EXPECT_NE(version.find(BackendSourceHash("native").substr(0, 16)), std::string::npos) << version;
}

}  // namespace
}  // namespace collage
