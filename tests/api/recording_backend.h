// Test backends of the API tests, added to the global registry by the test binary's main:
// "recording" runs every op through the reference kernels and records, per Run, where its input
// buffers lie and how many threads it was compiled for (so a test can see a caller's buffer reach
// a backend uncopied, and a thread count reach the backend); "failing" accepts every op and
// refuses to compile anything (so a test can see a BackendError).
#pragma once

#include <vector>

#include "backend/backend.h"

namespace collage::testing {

// What the recording backend saw last.
struct Recording {
  std::vector<const void*> input_addresses;  // of the last Executable::Run
  int compiled_threads = 0;                  // of the last Compile
};
Recording& LastRecording();

BackendPtr MakeRecordingBackend();
BackendPtr MakeFailingBackend();

}  // namespace collage::testing
