// The measurement worker: the process side of measured tuning. It answers measurement
// requests (measurement_protocol.h) one at a time: compile the partition function with the
// named backend of `registry`, time it, reply. Running in its own process, a candidate that
// crashes or hangs takes down only the worker, which the tuner replaces
// (measurement_process.h), and the tuner's own process never starts a backend's threads.
#pragma once

#include "backend/backend.h"

namespace collage {

// Serves requests on `socket` until the peer closes it; returns the process exit status.
int ServeMeasurements(const BackendRegistry& registry, int socket, const std::string& cache_dir = "");

// The `main` of a worker executable: expects the arguments "--socket FD [--cache-dir DIR]".
int MeasurementWorkerMain(const BackendRegistry& registry, int argc, char** argv);

}  // namespace collage
