#include "backend/xnnpack/xnnpack_executable.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include <sys/uio.h>
#include <unistd.h>

#include "backend/xnnpack/openmp_thread_pool.h"
#include "backend/xnnpack/xnnpack_status.h"
#include "support/error.h"
#include "support/layout_conversion.h"

namespace collage::xnnpack {
namespace {

size_t ElementCount(const Shape& shape) { return static_cast<size_t>(NumElements(shape)); }

bool Overlap(const Tensor& first, const Tensor& second) {
  const auto* first_begin = static_cast<const std::byte*>(first.raw_data());
  const auto* second_begin = static_cast<const std::byte*>(second.raw_data());
  return first_begin < second_begin + second.NumBytes() && second_begin < first_begin + first.NumBytes();
}

}  // namespace

bool ExtraBytesReadable(const void* data, size_t bytes) {
  constexpr uintptr_t kPageBytes = 4096;
  const uintptr_t last = reinterpret_cast<uintptr_t>(data) + (bytes == 0 ? 0 : bytes - 1);
  const uintptr_t beyond = last + XNN_EXTRA_BYTES;
  if (last / kPageBytes == beyond / kPageBytes) return true;
  // The kernel reads the address for us and reports a fault instead of raising one.
  unsigned char byte = 0;
  iovec local{&byte, 1};
  iovec remote{reinterpret_cast<void*>(beyond), 1};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1;
}

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
      boundary_layout_(boundary_layout),
      input_staging_(input_shapes_.size()),
      output_staging_(outputs_.size()) {}

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

void* XnnpackExecutable::InputBuffer(size_t i, const Tensor& input) {
  const Shape& shape = input_shapes_[i];
  if (LayoutsShareBytes(shape, boundary_layout_, Layout::kChannelsLast) &&
      ExtraBytesReadable(input.raw_data(), input.NumBytes())) {
    return const_cast<void*>(input.raw_data());
  }
  std::vector<float>& staging = input_staging_[i];
  if (staging.empty()) staging.assign(ElementCount(shape) + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
  ConvertLayout(input.raw_data(), boundary_layout_, staging.data(), Layout::kChannelsLast, shape, sizeof(float));
  return staging.data();
}

void* XnnpackExecutable::OutputBuffer(size_t i, Tensor& output, std::span<const Tensor> inputs) {
  if (LayoutsShareBytes(outputs_[i].shape, boundary_layout_, Layout::kChannelsLast) &&
      std::none_of(inputs.begin(), inputs.end(), [&](const Tensor& input) { return Overlap(input, output); })) {
    return output.raw_data();
  }
  std::vector<float>& staging = output_staging_[i];
  if (staging.empty()) staging.assign(ElementCount(outputs_[i].shape), 0.0f);
  return staging.data();
}

void XnnpackExecutable::Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  CheckBuffers(inputs, outputs);
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<xnn_external_value> externals;
  for (size_t i = 0; i < inputs.size(); ++i) externals.push_back({static_cast<uint32_t>(i), InputBuffer(i, inputs[i])});
  std::vector<void*> computed_outputs(outputs_.size(), nullptr);
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i].kind != OutputSource::Kind::kComputed) continue;
    computed_outputs[i] = OutputBuffer(i, outputs[i], inputs);
    externals.push_back({outputs_[i].external_id, computed_outputs[i]});
  }
  std::vector<void*> buffers;
  for (const xnn_external_value& external : externals) buffers.push_back(external.data);
  if (buffers != bound_) {
    CheckStatus(xnn_setup_runtime(runtime_.get(), externals.size(), externals.data()), "xnn_setup_runtime");
    bound_ = std::move(buffers);
  }
  // No loop came here: XNNPACK was bound to libpthreadpool before this program was loaded (a
  // Python process that imported torch first), and the runtime's last operator, when small, ran
  // on the calling thread without the yield flag reaching the library's workers.
  const int64_t loops_before = LoopsRunOnOpenMpThreads();
  CheckStatus(xnn_invoke_runtime(runtime_.get()), "xnn_invoke_runtime");
  if (LoopsRunOnOpenMpThreads() == loops_before) ParkLibraryWorkers(pool_.get());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const OutputSource& source = outputs_[i];
    void* target = outputs[i].raw_data();
    switch (source.kind) {
      case OutputSource::Kind::kComputed:
        if (computed_outputs[i] != target) {
          ConvertLayout(computed_outputs[i], Layout::kChannelsLast, target, boundary_layout_, source.shape,
                        sizeof(float));
        }
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
