// libFuzzer target for the ONNX importer: any byte string must import or be rejected with a
// one-line collage::Error (fuzz_input.h).
#include "frontend/onnx/onnx_importer.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return collage::fuzz::ConsumeInput([&] {
    collage::OnnxImportOptions options;
    options.max_folded_bytes = int64_t{16} << 20;  // stay far below libFuzzer's memory limit
    collage::ImportOnnxBytes(collage::fuzz::AsBytes(data, size), "fuzz.onnx", options);
  });
}
