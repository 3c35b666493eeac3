// Where measured tuning stands, for a caller's own progress display (the public API's
// CompileOptions::on_progress; the tuning layer reports it).
#pragma once

#include <cstddef>
#include <string>

namespace collage {

struct TuningProgress {
  std::string stage;    // "compiling" or "measuring"
  size_t done = 0;      // items of the stage finished
  size_t total = 0;     // items of the stage
  std::string current;  // the last one finished
};

}  // namespace collage
