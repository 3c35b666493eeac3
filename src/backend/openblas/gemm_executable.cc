#include "backend/openblas/gemm_executable.h"

#include <cblas.h>

#include <algorithm>
#include <cstring>

namespace collage::openblas {
namespace {

// Where a value lives during a run.
struct Binding {
  enum class Place { kInput, kConstant, kScratch, kOutput, kNone };
  Place place = Place::kNone;
  int index = -1;  // input / scratch / output index
};

class GemmExecutable final : public Executable {
 public:
  GemmExecutable(FlatPartition partition, std::vector<GemmStep> steps, int threads)
      : partition_(std::move(partition)), steps_(std::move(steps)), threads_(std::max(threads, 1)) {
    bindings_.resize(partition_.values.size());
    for (size_t id = 0; id < partition_.values.size(); ++id) {
      const FlatValue& value = partition_.values[id];
      if (value.source == FlatValue::Source::kParameter) bindings_[id] = {Binding::Place::kInput, value.parameter_index};
      if (value.source == FlatValue::Source::kConstant) bindings_[id] = {Binding::Place::kConstant, -1};
    }
    for (const GemmStep& step : steps_) {
      const auto output = std::find(partition_.outputs.begin(), partition_.outputs.end(), step.output);
      if (output != partition_.outputs.end()) {
        bindings_[step.output] = {Binding::Place::kOutput, static_cast<int>(output - partition_.outputs.begin())};
      } else {
        const FlatValue& value = partition_.value(step.output);
        bindings_[step.output] = {Binding::Place::kScratch, static_cast<int>(scratch_.size())};
        scratch_.push_back(Tensor::Zeros(value.dtype, value.shape));
      }
    }
  }

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    if (inputs.size() != partition_.parameters.size() || outputs.size() != partition_.outputs.size()) {
      throw Error("openblas: expected " + std::to_string(partition_.parameters.size()) + " inputs and " +
                  std::to_string(partition_.outputs.size()) + " outputs");
    }
    openblas_set_num_threads(threads_);
    for (const GemmStep& step : steps_) {
      RunStep(step, Data(step.a, inputs, outputs), Data(step.b, inputs, outputs),
              const_cast<float*>(Data(step.output, inputs, outputs)));
    }
    // Outputs not computed in place: parameters, constants, or a value returned twice.
    for (size_t j = 0; j < outputs.size(); ++j) {
      const int id = partition_.outputs[j];
      const Binding& binding = bindings_[id];
      if (binding.place == Binding::Place::kOutput && binding.index == static_cast<int>(j)) continue;
      std::memcpy(outputs[j].raw_data(), Data(id, inputs, outputs), outputs[j].NumBytes());
    }
  }

 private:
  const float* Data(int id, std::span<const Tensor> inputs, std::span<Tensor> outputs) const {
    const Binding& binding = bindings_[id];
    switch (binding.place) {
      case Binding::Place::kInput:
        return inputs[binding.index].data<float>();
      case Binding::Place::kConstant:
        return partition_.value(id).constant.data<float>();
      case Binding::Place::kScratch:
        return scratch_[binding.index].data<float>();
      case Binding::Place::kOutput:
        return outputs[binding.index].data<float>();
      case Binding::Place::kNone:
        break;
    }
    throw Error("openblas: value " + std::to_string(id) + " is never computed");
  }

  static void RunStep(const GemmStep& step, const float* a, const float* b, float* out) {
    const int64_t m = step.rows, n = step.columns, k = step.depth;
    const float beta = step.bias.defined() ? 1.0f : 0.0f;
    for (size_t batch = 0; batch < step.a_offsets.size(); ++batch) {
      float* c = out + static_cast<int64_t>(batch) * m * n;
      if (step.bias.defined()) {
        for (int64_t row = 0; row < m; ++row) std::memcpy(c + row * n, step.bias.raw_data(), n * sizeof(float));
      }
      cblas_sgemm(CblasRowMajor, CblasNoTrans, step.transpose_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
                  static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, a + step.a_offsets[batch],
                  static_cast<blasint>(std::max<int64_t>(k, 1)), b + step.b_offsets[batch],
                  static_cast<blasint>(std::max<int64_t>(step.transpose_b ? k : n, 1)), beta, c,
                  static_cast<blasint>(std::max<int64_t>(n, 1)));
    }
  }

  FlatPartition partition_;
  std::vector<GemmStep> steps_;
  int threads_;
  std::vector<Binding> bindings_;
  std::vector<Tensor> scratch_;
};

}  // namespace

std::unique_ptr<Executable> MakeGemmExecutable(FlatPartition partition, std::vector<GemmStep> steps, int threads) {
  return std::make_unique<GemmExecutable>(std::move(partition), std::move(steps), threads);
}

}  // namespace collage::openblas
