// The hand-over cost of measured tuning: what running a partition of one backend right after
// a partition of another costs beyond the two partitions' isolated times.
//
// Every candidate is timed alone, after a cool-down (tuning/measurement.h), so its time
// includes waking its backend's parked threads. Inside a model, after a partition of the same
// backend, those threads are awake and the partition runs faster than that; after a partition
// of another backend they are not, and that backend's pool may still poll for work on the
// cores this one needs. The search charges nothing between partitions of one backend, so a
// hand-over between two backends is charged what the consumer loses over running after a
// partition of its own backend. It is measured once per ordered pair of backends on this
// machine and thread count with a probe partition per backend (a small matrix product, or a
// convolution for backends without one), each timing after the in-model cool-down,
// in interleaved rounds: the producer's probe alone, the consumer's alone, the two in sequence,
// and the consumer's twice in sequence.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "backend/backend.h"
#include "runtime/cost_database.h"

namespace collage {

struct HandOverMeasurement {
  double producer_seconds = 0;        // median of the producer's probe alone
  double consumer_seconds = 0;        // median of the consumer's probe alone
  double sequence_seconds = 0;        // median of the producer's probe, then the consumer's
  double consumer_twice_seconds = 0;  // median of the consumer's probe twice in sequence
  // What the consumer's probe takes after the producer's, over what it takes after its own.
  double ConsumerAfterProducer() const { return sequence_seconds - producer_seconds; }
  double ConsumerAfterItself() const { return consumer_twice_seconds - consumer_seconds; }
  // The hand-over cost: ConsumerAfterProducer() - ConsumerAfterItself(), never below 0.
  double seconds() const;
};

// The probe partition `backend` compiles for hand-over measurements: a [64, 256] x [256, 256]
// dense product, else a 3x3 convolution with a ReLU over a [1, 32, 28, 28] image. Nullopt when
// the backend compiles neither.
std::optional<Function> HandOverProbe(const Backend& backend, const CompileOptions& options);

// Times the hand-over from `producer` to `consumer` with their probes (`rounds` interleaved
// rounds after a warm-up; each timing after the in-model cool-down). Throws Error when either
// backend has no probe.
HandOverMeasurement MeasureHandOver(const Backend& producer, const Backend& consumer, const CompileOptions& options,
                                    int rounds = 40);

// Hand-over costs by backend pair for one thread count: looked up in the database (per
// device) first, else measured, stored there and remembered. A pair of one backend, a backend
// without a probe and the reference interpreter cost 0.
class MeasuredHandOverCosts {
 public:
  // Keeps pointers to `registry` and `database` (may be null: measured and remembered only);
  // measures with MeasureHandOver's `rounds`.
  MeasuredHandOverCosts(const BackendRegistry& registry, CostDatabase* database, int threads, int rounds = 40)
      : registry_(&registry), database_(database), threads_(threads), rounds_(rounds) {}
  double Seconds(const std::string& producer, const std::string& consumer);

 private:
  const BackendRegistry* registry_;
  CostDatabase* database_;
  int threads_;
  int rounds_;
  std::map<std::pair<std::string, std::string>, double> known_;
};

}  // namespace collage
