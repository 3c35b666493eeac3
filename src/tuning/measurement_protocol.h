// The messages between a tuner and its measurement worker process (measurement_worker.h),
// over a stream socket.
//
// A request is one header line
//   "measure <backend> <threads> <seed> <warmup> <min_runs> <max_runs> <budget_s>
//    <target_relative_error> <percentile> <cool_down_bytes> <cool_down_s> <text_bytes> <meta_count>"
// followed by the partition function in the text format (its large constants printed as
// meta[K] references) and, per meta constant, a line "<bytes>" and that many bytes of .npy.
// A reply is one line: "ok <seconds> <median> <p10> <p90> <runs>" or "invalid <reason>".
#pragma once

#include <optional>
#include <string>

#include "ir/expr.h"
#include "tuning/measurement.h"

namespace collage {

struct MeasurementRequest {
  std::string backend;
  Function function;  // a type-checked partition function
  int threads = 1;
  uint64_t seed = 0;
  MeasurementOptions options;
};

struct MeasurementReply {
  bool valid = false;
  std::string reason;  // why not valid, one line
  // Not valid for a passing reason that says nothing about the candidate: the worker was
  // killed from outside (the out-of-memory killer, a user) or the measurement timed out on a
  // loaded machine. A tuner measures such a candidate again next time.
  bool transient = false;
  Measurement measurement;
};

// Throw Error when the peer is gone or the stream is malformed.
void WriteRequest(int socket, const MeasurementRequest& request);
// nullopt when the peer closed the stream before a request started.
std::optional<MeasurementRequest> ReadRequest(int socket);
void WriteReply(int socket, const MeasurementReply& reply);
MeasurementReply ReadReply(int socket);

}  // namespace collage
