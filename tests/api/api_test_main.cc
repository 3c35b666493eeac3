// The API tests' main: the test backends join the global registry before any test uses it;
// then gtest's main runs under the backends' load-time environment, as the other test binaries do.
#include <gtest/gtest.h>

#include "all_backends/global_registry_additions.h"
#include "api/recording_backend.h"
#include "backend/load_time_environment.h"

int main(int argc, char** argv) {
  collage::AddToGlobalRegistry(collage::testing::MakeRecordingBackend());
  collage::AddToGlobalRegistry(collage::testing::MakeFailingBackend());
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
