// libFuzzer target for the ONNX importer: any byte string must either import or fail with a
// collage::Error; crashes, hangs, sanitizer reports and other exceptions are bugs.
#include <cstddef>
#include <cstdint>
#include <span>

#include "frontend/onnx/onnx_importer.h"
#include "support/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  collage::OnnxImportOptions options;
  options.max_folded_bytes = int64_t{16} << 20;  // stay far below libFuzzer's memory limit
  try {
    collage::ImportOnnxBytes(std::as_bytes(std::span<const uint8_t>(data, size)), "fuzz.onnx", options);
  } catch (const collage::Error& error) {
    // Messages are one line (the CLI prints them as they are).
    for (const char* c = error.what(); *c != '\0'; ++c) {
      if (*c == '\n') __builtin_trap();
    }
  }
  return 0;
}
