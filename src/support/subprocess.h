// Running another program to completion with its standard streams connected to files.
#pragma once

#include <string>
#include <vector>

namespace collage {

// Where a program's standard streams go; an empty path leaves the stream as it is.
struct ProgramStreams {
  std::string input{};   // read as standard input
  std::string output{};  // standard output, truncated first
  std::string error{};   // standard error, truncated first
  bool error_to_output = false;  // standard error joins standard output (then `error` is unused)
};

// The exit status of a program that could not be started (not found, not executable),
// as a shell reports it.
inline constexpr int kProgramNotStarted = 127;

// Runs argv[0] (searched on PATH) with the arguments argv[1...] and waits for it. Returns its
// exit status, kProgramNotStarted when it could not be started, 128 + the signal that ended it.
int RunProgram(const std::vector<std::string>& argv, const ProgramStreams& streams = {});

}  // namespace collage
