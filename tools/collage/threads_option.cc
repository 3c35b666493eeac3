#include "threads_option.h"

#include "collage/compile_options.h"

namespace collage::cli {

OptionSpec ThreadsOptionSpec() {
  return {{"--threads"}, "N",
          "worker threads for the backends and for finding candidates (default: number of hardware threads; at most " +
              std::to_string(api::ThreadsPerHardwareThread()) + " per hardware thread)"};
}

uint64_t ThreadsArgument(const ParsedArguments& arguments) {
  return arguments.UnsignedValue("--threads", static_cast<uint64_t>(api::HardwareThreads()), 1,
                                 static_cast<uint64_t>(api::MostThreads()), api::ThreadsBoundReason());
}

}  // namespace collage::cli
