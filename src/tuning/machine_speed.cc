#include "tuning/machine_speed.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace collage {
namespace {

// 4 KiB of floats, each its own multiply-add chain (the loop vectorizes), passed over in 1-2 ms
// on a current core: longer than a scheduler's time slice when another process shares it.
constexpr size_t kProbeFloats = 1024;
constexpr int kProbePasses = 20000;

void RunProbeWork() {
  std::array<float, kProbeFloats> data;
  for (size_t i = 0; i < kProbeFloats; ++i) data[i] = 1.0f + static_cast<float>(i % 7) * 1e-3f;
  for (int pass = 0; pass < kProbePasses; ++pass) {
    for (size_t i = 0; i < kProbeFloats; ++i) data[i] = data[i] * 0.999f + 1e-4f;
  }
  // Keeps the work observable, so that it cannot be optimized away.
  volatile float sink = data[kProbeFloats / 2];
  (void)sink;
}

}  // namespace

double TimeOnThreads(int threads, const std::function<void()>& work) {
  const int others = std::max(threads, 1) - 1;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> helpers;
  helpers.reserve(static_cast<size_t>(others));
  for (int i = 0; i < others; ++i) {
    helpers.emplace_back([&] {
      ready.fetch_add(1, std::memory_order_release);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      work();
    });
  }
  while (ready.load(std::memory_order_acquire) < others) std::this_thread::yield();
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  work();
  for (std::thread& helper : helpers) helper.join();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double TimeSpeedProbe(int threads) { return TimeOnThreads(threads, RunProbeWork); }

std::function<double()> ProbeOnThreads(const std::function<double(int threads)>& probe, int threads) {
  if (!probe) return {};
  return [probe, threads] { return probe(threads); };
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
