// A one-line progress bar for long loops (e.g. measuring candidates):
//   measuring [#########.....................] 123/456 12.3 s  onednn: nn.conv2d 1x64x56x56
// It redraws in place ("\r", then erase to the end of the line), at most ten times a second
// plus the final state, and only when its stream is a terminal, so logs and pipes stay clean.
// Invariants: nothing is written when not displayed; after Finish (or destruction) the line
// ends with a newline and further calls do nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>

namespace collage {

class ProgressBar {
 public:
  enum class Display {
    kWhenTerminal,  // std::cerr/std::clog when stderr is a terminal, std::cout when stdout is
    kAlways,        // for tests
    kNever,
  };
  // Seconds from any fixed point; monotonic.
  using Clock = std::function<double()>;
  static double SteadySeconds();

  ProgressBar(std::string what, size_t total, std::ostream& out = std::cerr, Display display = Display::kWhenTerminal,
              Clock clock = &SteadySeconds);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  // `n` more items are done; `current` names what is being worked on now.
  void Advance(size_t n = 1, std::string_view current = "");
  // Draws the final state and ends the line.
  void Finish();

  bool displayed() const { return displayed_; }
  size_t done() const { return done_; }

 private:
  void Draw();

  std::string what_;
  size_t total_;
  std::ostream& out_;
  bool displayed_;
  Clock clock_;
  double start_seconds_;
  double last_draw_seconds_ = 0;
  bool drawn_ = false;
  bool finished_ = false;
  size_t done_ = 0;
  std::string current_;
};

}  // namespace collage
