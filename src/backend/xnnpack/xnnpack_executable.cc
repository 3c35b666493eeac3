#include "backend/xnnpack/xnnpack_executable.h"

#include <cstring>
#include <map>
#include <mutex>

#include "backend/xnnpack/openmp_thread_pool.h"
#include "backend/xnnpack/xnnpack_status.h"
#include "support/error.h"
#include "support/layout_conversion.h"

namespace collage::xnnpack {
namespace {

size_t ElementCount(const Shape& shape) { return static_cast<size_t>(NumElements(shape)); }

// Where XNNPACK was bound to libpthreadpool before this program was loaded (a Python process
// that imported torch first), its loops run on that library's workers, which poll for the next
// job (a million pause instructions, ~20 ms here) unless the last job carried the yield flag.
// XNNPACK gives it to the runtime's last operator, but a small one (a residual add) runs on the
// calling thread alone. An empty job with the flag, spanning every thread, sends them to sleep.
void ParkLibraryWorkers(pthreadpool_t pool) {
  pthreadpool_parallelize_1d(
      pool, [](void*, size_t) {}, nullptr, pthreadpool_get_threads_count(pool), PTHREADPOOL_FLAG_YIELD_WORKERS);
}

}  // namespace

ThreadPool SharedThreadPool(int threads) {
  static std::mutex mutex;
  static std::map<int, ThreadPool> pools;
  const std::lock_guard<std::mutex> lock(mutex);
  ThreadPool& pool = pools[threads];
  if (!pool) {
    pool = ThreadPool(pthreadpool_create(static_cast<size_t>(threads)), [](pthreadpool_t p) { pthreadpool_destroy(p); });
    if (!pool.get()) {
      pools.erase(threads);
      throw Error("xnnpack: cannot create a thread pool of " + std::to_string(threads) + " threads");
    }
  }
  return pool;
}

XnnpackExecutable::XnnpackExecutable(ThreadPool pool, StaticData static_data, Runtime runtime,
                                     std::vector<Shape> input_shapes, std::vector<OutputSource> outputs,
                                     Layout boundary_layout)
    : pool_(std::move(pool)),
      static_data_(std::move(static_data)),
      runtime_(std::move(runtime)),
      input_shapes_(std::move(input_shapes)),
      outputs_(std::move(outputs)),
      boundary_layout_(boundary_layout) {
  // The staging buffers never move, so the runtime is set up once, here; Run only invokes it.
  std::vector<xnn_external_value> externals;
  for (size_t i = 0; i < input_shapes_.size(); ++i) {
    input_staging_.emplace_back(ElementCount(input_shapes_[i]) + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
    externals.push_back({static_cast<uint32_t>(i), input_staging_.back().data()});
  }
  for (const OutputSource& output : outputs_) {
    const bool computed = output.kind == OutputSource::Kind::kComputed;
    output_staging_.emplace_back(computed ? ElementCount(output.shape) : 0, 0.0f);
    if (computed) externals.push_back({output.external_id, output_staging_.back().data()});
  }
  CheckStatus(xnn_setup_runtime(runtime_.get(), externals.size(), externals.data()), "xnn_setup_runtime");
}

void XnnpackExecutable::CheckBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) const {
  if (inputs.size() != input_shapes_.size() || outputs.size() != outputs_.size()) {
    throw Error("xnnpack: expected " + std::to_string(input_shapes_.size()) + " inputs and " +
                std::to_string(outputs_.size()) + " outputs, got " + std::to_string(inputs.size()) + " and " +
                std::to_string(outputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape expected = PhysicalShape(input_shapes_[i], boundary_layout_);
    if (inputs[i].dtype() != DType::kF32 || inputs[i].shape() != expected) {
      throw Error("xnnpack: input " + std::to_string(i) + " is not an f32 tensor of shape " + ShapeToString(expected));
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Shape expected = PhysicalShape(outputs_[i].shape, boundary_layout_);
    if (outputs[i].dtype() != DType::kF32 || outputs[i].shape() != expected) {
      throw Error("xnnpack: output " + std::to_string(i) + " is not an f32 tensor of shape " + ShapeToString(expected));
    }
  }
}

void XnnpackExecutable::Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  CheckBuffers(inputs, outputs);
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < inputs.size(); ++i) {
    ConvertLayout(inputs[i].raw_data(), boundary_layout_, input_staging_[i].data(), Layout::kChannelsLast,
                  input_shapes_[i], sizeof(float));
  }
  const int64_t loops_before = LoopsRunOnOpenMpThreads();
  CheckStatus(xnn_invoke_runtime(runtime_.get()), "xnn_invoke_runtime");
  if (LoopsRunOnOpenMpThreads() == loops_before) ParkLibraryWorkers(pool_.get());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const OutputSource& source = outputs_[i];
    void* target = outputs[i].raw_data();
    switch (source.kind) {
      case OutputSource::Kind::kComputed:
        ConvertLayout(output_staging_[i].data(), Layout::kChannelsLast, target, boundary_layout_, source.shape,
                      sizeof(float));
        break;
      case OutputSource::Kind::kParameter:
        std::memcpy(target, inputs[source.index].raw_data(), outputs[i].NumBytes());
        break;
      case OutputSource::Kind::kConstant:
        ConvertLayout(source.constant.raw_data(), Layout::kPlain, target, boundary_layout_, source.shape,
                      sizeof(float));
        break;
      case OutputSource::Kind::kSameAs:
        std::memcpy(target, outputs[source.index].raw_data(), outputs[i].NumBytes());
        break;
    }
  }
}

}  // namespace collage::xnnpack
