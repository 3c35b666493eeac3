// libFuzzer target for the plan loader of `collage run --plan` (header, plan hash and the
// partitioned module): any text must load or be rejected with a one-line collage::Error
// (fuzz_input.h).
#include <string>

#include "fuzz_input.h"
#include "pipeline/plan_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return collage::fuzz::ConsumeInput(
      [&] { collage::ParsePlan(std::string(collage::fuzz::AsText(data, size)), "fuzz.plan"); });
}
