// libFuzzer target for the .npz reader (zip archive and .npy arrays): any byte string must
// read into named tensors or be rejected with a one-line collage::Error (fuzz_input.h).
#include "fuzz_input.h"
#include "io/npz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return collage::fuzz::ConsumeInput(
      [&] { collage::ReadNpzFromMemory(collage::fuzz::AsBytes(data, size), "fuzz.npz"); });
}
