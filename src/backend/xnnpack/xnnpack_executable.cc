#include "backend/xnnpack/xnnpack_executable.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>

#include <sys/uio.h>
#include <unistd.h>

#include "backend/xnnpack/host_binary_ops.h"
#include "backend/xnnpack/host_depthwise.h"
#include "backend/xnnpack/host_pooling.h"
#include "backend/xnnpack/host_silu.h"
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

XnnpackExecutable::XnnpackExecutable(ThreadPool pool, StaticData static_data, std::vector<CompiledStep> steps,
                                     std::vector<int64_t> scratch_elements, std::vector<Shape> input_shapes,
                                     std::vector<OutputSource> outputs, Layout boundary_layout, int threads)
    : pool_(std::move(pool)),
      static_data_(std::move(static_data)),
      steps_(std::move(steps)),
      input_shapes_(std::move(input_shapes)),
      outputs_(std::move(outputs)),
      boundary_layout_(boundary_layout),
      threads_(threads),
      input_staging_(input_shapes_.size()),
      output_staging_(outputs_.size()),
      input_buffers_(input_shapes_.size(), nullptr),
      output_buffers_(outputs_.size(), nullptr) {
  // XNNPACK may read XNN_EXTRA_BYTES past the end of a value a runtime reads.
  for (int64_t elements : scratch_elements) {
    scratch_.emplace_back(static_cast<size_t>(elements) + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
  }
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

void* XnnpackExecutable::Resolve(const BufferRef& buffer) {
  switch (buffer.kind) {
    case BufferRef::Kind::kInput:
      return input_buffers_[buffer.index];
    case BufferRef::Kind::kOutput:
      return output_buffers_[buffer.index];
    case BufferRef::Kind::kScratch:
      return scratch_[buffer.index].data();
  }
  return nullptr;
}

bool XnnpackExecutable::RunRuntime(CompiledStep& step) {
  step.current.clear();
  for (const auto& external : step.externals) step.current.push_back(Resolve(external.second));
  if (step.current != step.bound) {
    std::vector<xnn_external_value> externals;
    for (size_t k = 0; k < step.externals.size(); ++k) externals.push_back({step.externals[k].first, step.current[k]});
    CheckStatus(xnn_setup_runtime(step.runtime.get(), externals.size(), externals.data()), "xnn_setup_runtime");
    step.bound = step.current;
  }
  const int64_t loops_before = LoopsRunOnOpenMpThreads();
  CheckStatus(xnn_invoke_runtime(step.runtime.get()), "xnn_invoke_runtime");
  return LoopsRunOnOpenMpThreads() != loops_before;
}

void XnnpackExecutable::RunHostStep(const HostStep& host) {
  const auto* lhs = static_cast<const float*>(Resolve(host.lhs));
  auto* out = static_cast<float*>(Resolve(host.out));
  switch (host.kind) {
    case HostStep::Kind::kBinary:
      RunHostBinary(host.binary, lhs, static_cast<const float*>(Resolve(host.rhs)), out, threads_);
      break;
    case HostStep::Kind::kGlobalAveragePool:
      RunHostGlobalAveragePool(host.pool, lhs, out, threads_);
      break;
    case HostStep::Kind::kDepthwise:
      RunHostDepthwise(host.depthwise, lhs, out, threads_);
      break;
    case HostStep::Kind::kExpandedDepthwise:
      RunHostExpandedDepthwise(host.expanded, lhs, out, threads_);
      break;
    case HostStep::Kind::kSilu:
      RunHostSilu(host.silu, lhs, out, threads_);
      break;
  }
}

void XnnpackExecutable::Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  CheckBuffers(inputs, outputs);
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < inputs.size(); ++i) input_buffers_[i] = InputBuffer(i, inputs[i]);
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const OutputSource& source = outputs_[i];
    const bool written_in_place =
        source.kind == OutputSource::Kind::kComputed && source.buffer.kind == BufferRef::Kind::kOutput;
    output_buffers_[i] = written_in_place ? OutputBuffer(i, outputs[i], inputs) : nullptr;
  }
  bool any_runtime = false;
  bool loops_came_here = false;
  for (CompiledStep& step : steps_) {
    if (step.runtime) {
      any_runtime = true;
      loops_came_here = RunRuntime(step) || loops_came_here;
    } else {
      RunHostStep(step.host);
    }
  }
  // No loop came here: XNNPACK was bound to libpthreadpool before this program was loaded (a
  // Python process that imported torch first), and a runtime's last operator, when small, ran
  // on the calling thread without the yield flag reaching the library's workers.
  if (any_runtime && !loops_came_here) ParkLibraryWorkers(pool_.get());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const OutputSource& source = outputs_[i];
    void* target = outputs[i].raw_data();
    switch (source.kind) {
      case OutputSource::Kind::kComputed:
        if (void* computed = Resolve(source.buffer); computed != target) {
          ConvertLayout(computed, Layout::kChannelsLast, target, boundary_layout_, source.shape, sizeof(float));
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
