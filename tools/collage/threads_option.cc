#include "threads_option.h"

#include <algorithm>
#include <thread>

namespace collage::cli {

uint64_t HardwareThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

OptionSpec ThreadsOptionSpec() {
  return {{"--threads"}, "N",
          "worker threads for the backends (default: number of hardware threads; at most " +
              std::to_string(kThreadsPerHardwareThread) + " per hardware thread)"};
}

uint64_t ThreadsArgument(const ParsedArguments& arguments) {
  const uint64_t hardware = HardwareThreads();
  return arguments.UnsignedValue("--threads", hardware, 1, kThreadsPerHardwareThread * hardware,
                                 "at most " + std::to_string(kThreadsPerHardwareThread) +
                                     " per hardware thread; this machine has " + std::to_string(hardware));
}

}  // namespace collage::cli
