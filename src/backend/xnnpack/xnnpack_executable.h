// A compiled XNNPACK partition: one runtime (weights packed, memory planned) created at compile
// time. XNNPACK reads and writes the caller's buffers where they are already in its NHWC layout
// (the partition's boundary layout is NHWC, or the value's bytes agree in both layouts); others go
// through staging buffers the executable owns, converted on the way in and out. The runtime is
// set up again only when the buffers it reads or writes move, which the executor's planned
// activation memory never does from run to run. Its loops run on OpenMP threads
// (openmp_thread_pool.h).
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backend/backend.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "support/tensor_format.h"

namespace collage::xnnpack {

// Where output i of the partition comes from.
struct OutputSource {
  enum class Kind {
    kComputed,   // XNNPACK external value `external_id`
    kParameter,  // a copy of input `index`
    kConstant,   // a copy of `constant`
    kSameAs,     // a copy of the earlier output `index`
  };
  Kind kind = Kind::kComputed;
  uint32_t external_id = 0;
  size_t index = 0;
  Tensor constant;
  Shape shape;  // the IR shape
};

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

class XnnpackExecutable final : public Executable {
 public:
  // Input i is external value i, of IR shape input_shapes[i]; the caller's buffers are in
  // `boundary_layout`.
  XnnpackExecutable(ThreadPool pool, StaticData static_data, Runtime runtime, std::vector<Shape> input_shapes,
                    std::vector<OutputSource> outputs, Layout boundary_layout);
  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override;

 private:
  void CheckBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) const;
  // The buffer XNNPACK reads input i from: the caller's, or staging filled from it.
  void* InputBuffer(size_t i, const Tensor& input);
  // The buffer XNNPACK writes computed output i to: the caller's (unless it overlaps an input),
  // or staging.
  void* OutputBuffer(size_t i, Tensor& output, std::span<const Tensor> inputs);

  // Destroyed bottom-up: the runtime before the data and the pool it uses.
  ThreadPool pool_;
  StaticData static_data_;
  Runtime runtime_;
  std::vector<Shape> input_shapes_;
  std::vector<OutputSource> outputs_;
  Layout boundary_layout_;
  std::vector<std::vector<float>> input_staging_;   // empty until an input needs it
  std::vector<std::vector<float>> output_staging_;  // empty until an output needs it
  std::optional<std::vector<void*>> bound_;  // the buffer of each external value at the last setup
  std::mutex mutex_;
};

}  // namespace collage::xnnpack
