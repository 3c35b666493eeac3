#include "threads_option.h"

#include "pipeline/request_checks.h"

namespace collage::cli {

OptionSpec ThreadsOptionSpec() {
  return {{"--threads"}, "N",
          "worker threads for the backends (default: number of hardware threads; at most " +
              std::to_string(kThreadsPerHardwareThread) + " per hardware thread)"};
}

uint64_t ThreadsArgument(const ParsedArguments& arguments) {
  return arguments.UnsignedValue("--threads", HardwareThreads(), 1, MostThreads(), ThreadsBoundReason());
}

}  // namespace collage::cli
