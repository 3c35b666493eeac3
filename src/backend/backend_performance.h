// What the analytic cost model knows of a backend's speed; each backend states its own.
#pragma once

#include <map>
#include <string>

namespace collage {

// How fast a backend runs: time = max(FLOPs / (peak * efficiency), bytes / bandwidth) +
// launch overhead, for the whole partition (so fusing saves the intermediate traffic and
// the launches). An op whose efficiency is 0 cannot run there: the cost is Invalid.
struct BackendPerformance {
  double peak_flops = 1e12;          // per second
  double memory_bandwidth = 1e11;    // bytes per second
  double launch_overhead = 5e-6;     // seconds per partition that computes anything
  double default_efficiency = 0.5;   // fraction of peak for ops not listed
  std::map<std::string, double> op_efficiency;
};

}  // namespace collage
