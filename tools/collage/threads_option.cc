#include "threads_option.h"

#include <algorithm>
#include <thread>

namespace collage::cli {

OptionSpec ThreadsOptionSpec() {
  return {{"--threads"}, "N", "worker threads for the backends (default: number of cores)"};
}

uint64_t ThreadsArgument(const ParsedArguments& arguments) {
  return arguments.UnsignedValue("--threads", std::max(1u, std::thread::hardware_concurrency()), 1, 4096);
}

}  // namespace collage::cli
