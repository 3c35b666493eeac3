#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/reference/reference_backend.h"
#include "support/error.h"

namespace collage {
namespace {

TEST(BackendRegistryTest, GlobalRegistryHasTheReferenceBackend) {
  const BackendPtr reference = BackendRegistry::Global().Get("reference");
  EXPECT_EQ(reference->kind(), BackendKind::kInterpreter);
  EXPECT_STREQ(DeviceName(reference->device()), "cpu");
}

TEST(BackendRegistryTest, UnknownNameListsTheAvailableBackends) {
  try {
    BackendRegistry::Global().Get("no_such_backend");
    FAIL() << "expected an Error";
  } catch (const Error& error) {

    EXPECT_NE(std::string(error.what()).find("unknown backend 'no_such_backend' (available: reference"),
              std::string::npos)
        << error.what();
  }
}

TEST(BackendRegistryTest, RegisteringTwiceIsAnError) {
  BackendRegistry registry;
  registry.Register(std::make_shared<ReferenceBackend>());
  EXPECT_THROW(registry.Register(std::make_shared<ReferenceBackend>()), Error);
  EXPECT_EQ(registry.Names(), std::vector<std::string>{"reference"});
}

TEST(ReferenceBackendTest, MatchesTheInterpreterOnATupleResult) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = add(%x, %y) : Tensor[(2, 3), f32]
  %1 = nn.relu(%0) : Tensor[(2, 3), f32]
  (%0, %1)
}
)");
  EXPECT_TRUE(testing::MatchesReference(ReferenceBackend(), function));
}

TEST(ReferenceBackendTest, CompileAllReportsEachResult) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(4), f32]) {
  %0 = nn.relu(%x) : Tensor[(4), f32]
  %0
}
)");
  const std::vector<CompileResult> results = ReferenceBackend().CompileAll({function, function}, {});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_NE(results[0].executable, nullptr);
  EXPECT_TRUE(results[1].error.empty());
}

}  // namespace
}  // namespace collage
