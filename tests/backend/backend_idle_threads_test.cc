// Every backend's worker threads go to sleep soon after a run. Inside a model, partitions of
// different backends alternate; a thread pool still polling for work after its partition has
// finished takes a core from the next backend's threads (an XNNPACK pool polled for ~20 ms,
// doubling a mixed GPT-2 placement's latency on 2 cores). The check: after a few runs with 2
// threads, the process uses little CPU time while the calling thread sleeps.
#include <time.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/library_test_util.h"
#include "interpreter/interpreter.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Partitions ending in a large op and in a small one (which a library may run on the calling
// thread alone, leaving its workers as the previous op left them).
std::vector<Function> Partitions() {
  const Function dense_with_bias = testing::ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(64, 512), f32]) {
  %0 = constant(meta[0], Tensor[(512, 512), f32])
  %1 = nn.dense(%x, %0) : Tensor[(64, 512), f32]
  %2 = constant(meta[1], Tensor[(512), f32])
  add(%1, %2)
}
)",
                                                                          {{512, 512}, {512}});
  const Function dense_then_residual = testing::ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(64, 512), f32], %residual: Tensor[(64, 512), f32]) {
  %0 = constant(meta[0], Tensor[(512, 512), f32])
  %1 = nn.dense(%x, %0) : Tensor[(64, 512), f32]
  %2 = constant(meta[1], Tensor[(512), f32])
  %3 = add(%1, %2) : Tensor[(64, 512), f32]
  add(%3, %residual)
}
)",
                                                                              {{512, 512}, {512}});
  return {dense_with_bias, dense_then_residual};
}

double CpuSecondsWhileAsleep(double seconds) {
  const double before = ProcessCpuSeconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return ProcessCpuSeconds() - before;
}

TEST(BackendIdleThreadsTest, WorkersSleepAfterARun) {
  constexpr double kSleepSeconds = 0.1;
  // A pool that polls for 1 ms after a run stays below this; one that polls for ~20 ms or
  // more, or never sleeps, does not.
  constexpr double kMaxBusySeconds = 0.01;
  CompileOptions options;
  options.threads = 2;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (backend->kind() == BackendKind::kInterpreter) continue;
    int compiled = 0;
    for (const Function& function : Partitions()) {
      std::unique_ptr<Executable> executable;
      try {
        executable = backend->Compile(function, options);
      } catch (const Error&) {
        continue;
      }
      ++compiled;
      const std::vector<Value> arguments = RandomArguments(function, 0);
      for (int run = 0; run < 5; ++run) InvokeExecutable(*executable, function, arguments);
      const double busy = CpuSecondsWhileAsleep(kSleepSeconds);
      EXPECT_LT(busy, kMaxBusySeconds) << backend->name() << "'s threads used " << busy * 1e3 << " ms of CPU in the "
                                       << kSleepSeconds * 1e3 << " ms after the last run of partition "
                                       << compiled;
    }
    EXPECT_GT(compiled, 0) << backend->name() << " compiles none of the test's dense partitions";
  }
}

}  // namespace
}  // namespace collage
