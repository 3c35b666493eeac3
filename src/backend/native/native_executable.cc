#include "backend/native/native_executable.h"

#include <cstring>

#include "backend/native/parallel_chunks.h"
#include "interpreter/interpreter.h"
#include "support/error.h"

namespace collage::native {
namespace {

class NativeExecutable final : public Executable {
 public:
  NativeExecutable(ExecutablePlan plan, int threads)
      : plan_(std::move(plan)), threads_(KernelThreads(std::max(1, threads))) {
    for (size_t bytes : plan_.buffer_bytes) buffers_.push_back(Tensor::Zeros(DType::kU8, {static_cast<int64_t>(bytes)}));
  }

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    std::vector<void*> args;
    for (const Step& step : plan_.steps) {
      if (step.fallback) {
        RunFallback(step, inputs, outputs);
        continue;
      }
      args.clear();
      for (const Slot& slot : step.args) args.push_back(Address(slot, inputs, outputs));
      for (const Slot& slot : step.results) args.push_back(Address(slot, inputs, outputs));
      if (const char* error = step.kernel.function(args.data(), &threads_)) throw Error(std::string("native: ") + error);
    }
    for (const auto& [output, source] : plan_.output_copies) {
      std::memcpy(outputs[output].raw_data(), Address(source, inputs, outputs), outputs[output].NumBytes());
    }
  }

 private:
  void* Address(const Slot& slot, std::span<const Tensor> inputs, std::span<Tensor> outputs) {
    switch (slot.kind) {
      case Slot::Kind::kInput: return const_cast<void*>(inputs[slot.index].raw_data());
      case Slot::Kind::kOutput: return outputs[slot.index].raw_data();
      case Slot::Kind::kConstant: return const_cast<void*>(plan_.constants[slot.index].raw_data());
      case Slot::Kind::kBuffer: return buffers_[slot.index].raw_data();
    }
    return nullptr;
  }

  void RunFallback(const Step& step, std::span<const Tensor> inputs, std::span<Tensor> outputs) {
    std::vector<Value> args;
    for (size_t p = 0; p < step.fallback->params.size(); ++p) {
      const TensorTypeNode* type = AsTensorType(step.fallback->params[p]->checked_type());
      args.emplace_back(Tensor::Borrow(type->dtype, type->shape, Address(step.args[p], inputs, outputs)));
    }
    const std::vector<Tensor> results = Evaluate(step.fallback, args).Flatten();
    for (size_t r = 0; r < results.size(); ++r) {
      std::memcpy(Address(step.results[r], inputs, outputs), results[r].raw_data(), results[r].NumBytes());
    }
  }

  ExecutablePlan plan_;
  ::native::Threads threads_;
  std::vector<Tensor> buffers_;
};

}  // namespace

std::unique_ptr<Executable> MakeNativeExecutable(ExecutablePlan plan, int threads) {
  return std::make_unique<NativeExecutable>(std::move(plan), threads);
}

}  // namespace collage::native
