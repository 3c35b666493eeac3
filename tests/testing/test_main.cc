// The main of the test binaries: gtest's, run under the backends' load-time environment
// (backend/load_time_environment.h), as the collage tool runs.
#include <gtest/gtest.h>

#include "backend/load_time_environment.h"

int main(int argc, char** argv) {
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
