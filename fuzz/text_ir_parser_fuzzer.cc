// libFuzzer target for the text-IR parser and type checker: any text must parse into a
// type-checked module or be rejected with a one-line collage::Error (fuzz_input.h).
#include "fuzz_input.h"
#include "parser/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return collage::fuzz::ConsumeInput([&] { collage::ParseModule(collage::fuzz::AsText(data, size), "fuzz.cir"); });
}
