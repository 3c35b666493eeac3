// A compiled XNNPACK partition: one runtime (weights packed, memory planned) created and set up
// at compile time on staging buffers the executable owns. Run copies the inputs into them
// (4-D ones converted to NHWC unless the partition's boundary layout is already NHWC), invokes
// the runtime on the executable's thread pool (its loops on OpenMP threads,
// openmp_thread_pool.h) and copies the results out (converted to the boundary layout); XNNPACK
// never sees the caller's buffers.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <mutex>
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

  // Destroyed bottom-up: the runtime before the data and the pool it uses.
  ThreadPool pool_;
  StaticData static_data_;
  Runtime runtime_;
  std::vector<Shape> input_shapes_;
  std::vector<OutputSource> outputs_;
  Layout boundary_layout_;
  std::vector<std::vector<float>> input_staging_;
  std::vector<std::vector<float>> output_staging_;  // empty for outputs that are host copies
  std::mutex mutex_;
};

}  // namespace collage::xnnpack
