// The main of a benchmark program: re-executes it with the backends' load-time environment
// (OpenMP wait policy), runs `run`, and turns an exception into "<program>: <message>" and
// exit status 1.
#pragma once

#include <exception>
#include <iostream>

#include "backend/backend.h"
#include "backend/load_time_environment.h"

namespace collage::bench {

inline int GuardedMain(const char* program, int (*run)(int, char**), int argc, char** argv) {
  ReexecuteWithLoadTimeEnvironment(BackendRegistry::Global(), argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << program << ": " << error.what() << "\n";
    return 1;
  }
}

}  // namespace collage::bench
