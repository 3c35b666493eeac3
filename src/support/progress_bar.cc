#include "support/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace collage {
namespace {

constexpr size_t kBarWidth = 30;
constexpr size_t kMaxCurrentLength = 60;
constexpr double kRedrawInterval = 0.1;

bool IsTerminal(const std::ostream& out) {
  if (&out == &std::cerr || &out == &std::clog) return isatty(STDERR_FILENO) != 0;
  if (&out == &std::cout) return isatty(STDOUT_FILENO) != 0;
  return false;
}

bool ShouldDisplay(const std::ostream& out, ProgressBar::Display display) {
  switch (display) {
    case ProgressBar::Display::kAlways:
      return true;
    case ProgressBar::Display::kNever:
      return false;
    case ProgressBar::Display::kWhenTerminal:
      return IsTerminal(out);
  }
  return false;
}

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", seconds);
  return text;
}

}  // namespace

double ProgressBar::SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ProgressBar::ProgressBar(std::string what, size_t total, std::ostream& out, Display display, Clock clock)
    : what_(std::move(what)),
      total_(total),
      out_(out),
      displayed_(ShouldDisplay(out, display)),
      clock_(std::move(clock)),
      start_seconds_(clock_()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Advance(size_t n, std::string_view current) {
  if (finished_) return;
  done_ = std::min(done_ + n, total_);
  current_ = current.substr(0, kMaxCurrentLength);
  if (!displayed_) return;
  const double now = clock_();
  if (!drawn_ || now - last_draw_seconds_ >= kRedrawInterval || done_ == total_) Draw();
}

void ProgressBar::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!displayed_) return;
  Draw();
  out_ << "\n" << std::flush;
}

void ProgressBar::Draw() {
  const double now = clock_();
  const size_t filled = total_ == 0 ? kBarWidth : done_ * kBarWidth / total_;
  std::string line = "\r" + what_ + " [" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "] " +
                     std::to_string(done_) + "/" + std::to_string(total_) + " " + FormatSeconds(now - start_seconds_);
  if (!current_.empty()) line += "  " + current_;
  out_ << line << "\033[K" << std::flush;
  drawn_ = true;
  last_draw_seconds_ = now;
}

}  // namespace collage
