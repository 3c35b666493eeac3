// libFuzzer target for the pattern-table parser: any text must parse into labelled patterns
// or be rejected with a one-line collage::Error (fuzz_input.h).
#include "fuzz_input.h"
#include "pattern/pattern_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return collage::fuzz::ConsumeInput(
      [&] { collage::ParsePatternTable(collage::fuzz::AsText(data, size), "fuzz.patterns"); });
}
