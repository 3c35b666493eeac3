#include "tuning/measurement_worker.h"

#include <exception>
#include <iostream>
#include <string>

#include "support/error.h"
#include "tuning/measurement_protocol.h"

namespace collage {

int ServeMeasurements(const BackendRegistry& registry, int socket, const std::string& cache_dir) {
  while (true) {
    std::optional<MeasurementRequest> request;
    try {
      request = ReadRequest(socket);
    } catch (const std::exception& error) {
      std::cerr << "collage-measure-worker: " << error.what() << std::endl;
      return 1;
    }
    if (!request) return 0;
    MeasurementReply reply;
    try {
      const BackendPtr backend = registry.Get(request->backend);
      const CompileOptions compile_options{request->threads, cache_dir};
      reply.measurement = MeasurePartition(*backend, request->function, compile_options, request->options, request->seed);
      reply.valid = true;
    } catch (const std::exception& error) {
      reply.reason = error.what();
    }
    try {
      WriteReply(socket, reply);
    } catch (const std::exception& error) {
      std::cerr << "collage-measure-worker: " << error.what() << std::endl;
      return 1;
    }
  }
}

int MeasurementWorkerMain(const BackendRegistry& registry, int argc, char** argv) {
  int socket = -1;
  std::string cache_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--socket" && i + 1 < argc) {
      socket = std::stoi(argv[++i]);
    } else if (argument == "--cache-dir" && i + 1 < argc) {
      cache_dir = argv[++i];
    } else {
      std::cerr << "collage-measure-worker: unexpected argument '" << argument
                << "' (this program is started by the tuner: --socket FD [--cache-dir DIR])" << std::endl;
      return 2;
    }
  }
  if (socket < 0) {
    std::cerr << "collage-measure-worker: missing --socket FD (this program is started by the tuner)" << std::endl;
    return 2;
  }
  return ServeMeasurements(registry, socket, cache_dir);
}

}  // namespace collage
