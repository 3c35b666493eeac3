#include "tuning/machine_speed.h"

#include <array>
#include <chrono>
#include <thread>

namespace collage {
namespace {

// 4 KiB of floats, each its own multiply-add chain (the loop vectorizes), passed over about 2 ms
// on a current core: longer than a scheduler's time slice when another process shares it.
constexpr size_t kProbeFloats = 1024;
constexpr int kProbePasses = 20000;

}  // namespace

double TimeSpeedProbe() {
  std::array<float, kProbeFloats> data;
  for (size_t i = 0; i < kProbeFloats; ++i) data[i] = 1.0f + static_cast<float>(i % 7) * 1e-3f;
  const auto start = std::chrono::steady_clock::now();
  for (int pass = 0; pass < kProbePasses; ++pass) {
    for (size_t i = 0; i < kProbeFloats; ++i) data[i] = data[i] * 0.999f + 1e-4f;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Keeps the work observable, so that it cannot be optimized away.
  volatile float sink = data[kProbeFloats / 2];
  (void)sink;
  return seconds;
}

double MachineSpeed::Probe() {
  if (!probe_) return 0;
  const double seconds = probe_();
  Observe(seconds);
  return seconds;
}

void MachineSpeed::EnsureBaseline(int count) {
  if (!probe_ || fastest_) return;
  for (int i = 0; i < count; ++i) Probe();
}

bool MachineSpeed::WaitUntilCalm(double& seconds_left) {
  constexpr double kPauseSeconds = 0.1;
  while (true) {
    const auto start = std::chrono::steady_clock::now();
    if (!IsBusy(Probe())) return true;
    if (seconds_left <= 0) return false;
    std::this_thread::sleep_for(std::chrono::duration<double>(kPauseSeconds));
    seconds_left -= std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
}

void MachineSpeed::Observe(double probe_seconds) {
  if (!fastest_ || probe_seconds < *fastest_) fastest_ = probe_seconds;
}

bool MachineSpeed::IsSlowerThan(double probe_seconds, double factor) const {
  return fastest_ && probe_seconds > factor * *fastest_;
}

}  // namespace collage
