// A compiled XNNPACK partition: its steps (partition_steps.h), each an XNNPACK runtime (weights
// packed, memory planned) created at compile time or a host binary op, run in order. XNNPACK
// reads and writes the caller's buffers where they are already in its NHWC layout (the
// partition's boundary layout is NHWC, or the value's bytes agree in both layouts); others go
// through staging buffers the executable owns, converted on the way in and out. Values passed
// between steps live in the executable's scratch buffers. A runtime is set up again only when
// the buffers it reads or writes move, which the executor's planned activation memory never
// does from run to run. Its loops and the host ops' run on OpenMP threads
// (openmp_thread_pool.h).
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backend/backend.h"
#include "backend/xnnpack/partition_steps.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "support/tensor_format.h"

namespace collage::xnnpack {

struct RuntimeDeleter {
  void operator()(xnn_runtime_t runtime) const { xnn_delete_runtime(runtime); }
};
using ThreadPool = std::shared_ptr<std::remove_pointer_t<pthreadpool_t>>;
using Runtime = std::unique_ptr<std::remove_pointer_t<xnn_runtime_t>, RuntimeDeleter>;

// Whether the XNN_EXTRA_BYTES past the end of `bytes` bytes at `data`, which XNNPACK may read
// from an input, are readable: memory is mapped in whole pages (4 KiB at least), so they are when
// they share the page of the buffer's last byte; otherwise when the next page is (asked of the
// kernel, about 1.5 us: a buffer inside a larger allocation, such as the executor's arena, often
// ends on a page boundary). The bytes read there are never used.
bool ExtraBytesReadable(const void* data, size_t bytes);

// The process's pool of `threads` threads, shared by every executable compiled for that many
// threads (runs are serialized by the pool), so that a placement with many XNNPACK partitions
// has one set of worker threads rather than one per partition. Throws Error when it cannot be created.
ThreadPool SharedThreadPool(int threads);

// A step of a compiled partition: a runtime with the buffer of each external value, or a host op.
struct CompiledStep {
  Runtime runtime;  // null for a host op
  std::vector<std::pair<uint32_t, BufferRef>> externals;
  HostStep host;
  std::vector<void*> current;               // the buffer of each external value in this run
  std::optional<std::vector<void*>> bound;  // and at the last setup
};

class XnnpackExecutable final : public Executable {
 public:
  // Input i is of IR shape input_shapes[i]; the caller's buffers are in `boundary_layout`.
  // `scratch_elements`: the size of each scratch buffer the steps name.
  XnnpackExecutable(ThreadPool pool, StaticData static_data, std::vector<CompiledStep> steps,
                    std::vector<int64_t> scratch_elements, std::vector<Shape> input_shapes,
                    std::vector<OutputSource> outputs, Layout boundary_layout, int threads);
  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override;

 private:
  void CheckBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) const;
  // The buffer the steps read input i from: the caller's, or staging filled from it.
  void* InputBuffer(size_t i, const Tensor& input);
  // The buffer a step writes output i to: the caller's (unless it overlaps an input), or staging.
  void* OutputBuffer(size_t i, Tensor& output, std::span<const Tensor> inputs);
  void* Resolve(const BufferRef& buffer);
  // Runs a runtime step on the current buffers; true when its loops came to this program's
  // OpenMP threads (openmp_thread_pool.h).
  bool RunRuntime(CompiledStep& step);
  void RunHostStep(const HostStep& host);

  // Destroyed bottom-up: the runtimes before the data and the pool they use.
  ThreadPool pool_;
  StaticData static_data_;
  std::vector<CompiledStep> steps_;
  std::vector<std::vector<float>> scratch_;
  std::vector<Shape> input_shapes_;
  std::vector<OutputSource> outputs_;
  Layout boundary_layout_;
  int threads_;
  std::vector<std::vector<float>> input_staging_;   // empty until an input needs it
  std::vector<std::vector<float>> output_staging_;  // empty until an output needs it
  std::vector<void*> input_buffers_;                // this run's, by input
  std::vector<void*> output_buffers_;               // this run's, by output
  std::mutex mutex_;
};

}  // namespace collage::xnnpack
