// The per-partition profiler: the executor records how long each compiled
// call's Executable::Run took, run after run, and the profiler reports per call the mean and
// median and its share of the summed means, as a table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace collage {

// What is timed: one compiled call of the executed function.
struct ProfiledCall {
  std::string global_symbol;
  std::string backend;
  size_t ops = 0;  // op calls inside the compiled function, composites included
};

struct ProfileRow {
  ProfiledCall call;
  size_t runs = 0;
  double mean_ms = 0.0;
  double median_ms = 0.0;
  double share = 0.0;  // mean_ms / the sum of every row's mean_ms, in [0, 1]
};

// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
double Median(std::vector<double> values);

class Profiler {
 public:
  // Adds a call to time; returns its index for Record. Rows keep the order of Add.
  size_t Add(ProfiledCall call);
  void Record(size_t index, double milliseconds);
  // Forgets every recorded time (warm-up runs, say); the calls stay.
  void ClearSamples();

  std::vector<ProfileRow> Rows() const;
  // One line per call plus a header and a total line:
  //   partition   backend    ops  runs  mean ms  median ms  share
  //   reference_0 reference    3    10    0.120      0.118  40.0%
  std::string Table() const;

 private:
  std::vector<ProfiledCall> calls_;
  std::vector<std::vector<double>> samples_;
};

}  // namespace collage
