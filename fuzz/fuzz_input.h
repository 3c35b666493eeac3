// What every fuzz target does with an input: hands it to the code under test, which must
// accept it or reject it with a collage::Error whose message is one line (the CLI prints
// messages as they are). A multi-line message traps, which libFuzzer reports as a crash;
// crashes, hangs, sanitizer reports and other exceptions are bugs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "support/error.h"

namespace collage::fuzz {

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

inline std::span<const std::byte> AsBytes(const uint8_t* data, size_t size) {
  return std::as_bytes(std::span<const uint8_t>(data, size));
}

// Runs `consume`; returns 0, as LLVMFuzzerTestOneInput must.
template <typename Consume>
int ConsumeInput(Consume consume) {
  try {
    consume();
  } catch (const Error& error) {
    for (const char* c = error.what(); *c != '\0'; ++c) {
      if (*c == '\n') __builtin_trap();
    }
  }
  return 0;
}

}  // namespace collage::fuzz
