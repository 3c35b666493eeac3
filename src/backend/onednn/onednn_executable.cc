#include "backend/onednn/onednn_executable.h"

#include <omp.h>

#include <algorithm>

namespace collage::onednn {
namespace {

class OnednnExecutable final : public Executable {
 public:
  OnednnExecutable(Program program, dnnl::engine engine, int threads)
      : program_(std::move(program)), engine_(std::move(engine)), stream_(engine_), threads_(std::max(threads, 1)) {}

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    const FlatPartition& partition = program_.partition;
    if (inputs.size() != partition.parameters.size() || outputs.size() != partition.outputs.size()) {
      throw Error("onednn: expected " + std::to_string(partition.parameters.size()) + " inputs and " +
                  std::to_string(partition.outputs.size()) + " outputs");
    }
    for (ExternalBinding& binding : program_.bindings) {
      void* data = binding.is_input ? const_cast<void*>(inputs[binding.index].raw_data())
                                    : outputs[binding.index].raw_data();
      binding.target.set_data_handle(data);
    }
    // oneDNN's OpenMP runtime reads the calling thread's thread count.
    omp_set_num_threads(threads_);
    try {
      for (Step& step : program_.steps) step.primitive.execute(stream_, step.args);
      stream_.wait();
    } catch (const dnnl::error& error) {
      throw Error(std::string("onednn: a primitive failed: ") + error.what());
    }
  }

 private:
  Program program_;
  dnnl::engine engine_;
  dnnl::stream stream_;
  int threads_;
};

}  // namespace

std::unique_ptr<Executable> MakeExecutable(Program program, dnnl::engine engine, int threads) {
  return std::make_unique<OnednnExecutable>(std::move(program), std::move(engine), threads);
}

}  // namespace collage::onednn
