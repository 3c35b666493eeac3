// Whether the machine is running at its usual speed: the tuner's guard against storing
// timings taken while something else (another process, the host of a virtual machine) slowed
// everything down. A burst like that once made every candidate timed during a minute five times
// slower, and the cost database kept those costs for every later search.
//
// The check times a fixed piece of work, the speed probe, before and after each measurement.
// The probe is arithmetic on data that stays in the L1 cache, a few milliseconds long so that
// sharing a core with another process shows, run on as many threads at once as the
// measurement uses: another process on one of the cores slows a two-thread measurement about
// twice, while a single-threaded probe would still find the free core and see nothing. A machine
// is busy when a probe took more than `busy_factor` times the fastest probe seen.
#pragma once

#include <functional>
#include <optional>
#include <utility>

namespace collage {

// Seconds the speed probe takes now, run on `threads` threads at once.
double TimeSpeedProbe(int threads = 1);

// Wall seconds from starting `work` on `threads` threads at once (the caller's among them) until
// the last of them finished; the threads are started before the clock starts.
double TimeOnThreads(int threads, const std::function<void()>& work);

// `probe` bound to `threads`; empty when `probe` is.
std::function<double()> ProbeOnThreads(const std::function<double(int threads)>& probe, int threads);

// The fastest probe seen, and the busy test against it.
class MachineSpeed {
 public:
  // `probe` times the speed probe (TimeSpeedProbe bound to a thread count, or a stand-in in
  // tests); empty: no probing, and the machine is never busy.
  explicit MachineSpeed(std::function<double()> probe, double busy_factor = 3)
      : probe_(std::move(probe)), busy_factor_(busy_factor) {}

  bool probes() const { return static_cast<bool>(probe_); }
  // Times the probe and records it; 0 without a probe.
  double Probe();
  // Probes `count` times if no probe has been recorded yet: the baseline later probes are
  // judged against.
  void EnsureBaseline(int count = 3);
  // Probes every 0.1 s until a probe is not busy or `seconds_left` (decreased by the time
  // spent) runs out; returns whether the machine is calm.
  bool WaitUntilCalm(double& seconds_left);

  // Records a probe (the fastest is kept).
  void Observe(double probe_seconds);
  // Slower than busy_factor times the fastest probe; false before any probe.
  bool IsBusy(double probe_seconds) const { return IsSlowerThan(probe_seconds, busy_factor_); }
  // Slower than `factor` times the fastest probe; false before any probe.
  bool IsSlowerThan(double probe_seconds, double factor) const;
  std::optional<double> fastest() const { return fastest_; }
  double busy_factor() const { return busy_factor_; }

 private:
  std::function<double()> probe_;
  double busy_factor_;
  std::optional<double> fastest_;
};

}  // namespace collage
