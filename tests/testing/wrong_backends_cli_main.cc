// The collage command-line tool with the deliberately wrong test backends added after this
// build's own, for the CLI tests that check `run --check` catches each of them.
#include "all_backends/global_registry_additions.h"
#include "command_line.h"
#include "testing/wrong_backends.h"

int main(int argc, char** argv) {
  for (collage::testing::Mistake mistake : collage::testing::AllMistakes()) {
    collage::AddToGlobalRegistry(std::make_shared<collage::testing::WrongBackend>(mistake));
  }
  return collage::cli::RunCommandLine(argc, argv);
}
