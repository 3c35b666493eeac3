#include "backend/reference/reference_backend.h"

#include <cstring>

#include "backend/boundary_layout.h"
#include "interpreter/interpreter.h"
#include "ir/type_inference.h"

namespace collage {
namespace {

class InterpretedExecutable final : public Executable {
 public:
  explicit InterpretedExecutable(Function function) : function_(std::move(function)) {}

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    std::vector<Value> args(inputs.begin(), inputs.end());
    const std::vector<Tensor> results = Evaluate(function_, args).Flatten();
    if (results.size() != outputs.size()) {
      throw Error("reference: the function has " + std::to_string(results.size()) + " outputs, " +
                  std::to_string(outputs.size()) + " buffers were given");
    }
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].dtype() != outputs[i].dtype() || results[i].shape() != outputs[i].shape()) {
        throw Error("reference: output " + std::to_string(i) + " buffer has the wrong type");
      }
      std::memcpy(outputs[i].raw_data(), results[i].raw_data(), results[i].NumBytes());
    }
  }

 private:
  Function function_;
};

}  // namespace

SupportDeclaration ReferenceBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = [](const CallNode&) { return true; };
  return declaration;
}

BackendPerformance ReferenceBackend::Performance() const {
  BackendPerformance performance;
  performance.peak_flops = 2e8;
  performance.memory_bandwidth = 2e9;
  performance.default_efficiency = 1.0;
  return performance;
}

std::unique_ptr<Executable> ReferenceBackend::Compile(const Function& function, const CompileOptions&) const {
  if (!function->body->checked_type()) InferType(function);
  for (const auto& param : function->params) {
    if (!AsTensorType(param->checked_type())) {
      throw Error("reference: parameter %" + param->name_hint + " is a tuple; partitions take tensors only");
    }
  }
  return std::make_unique<InterpretedExecutable>(WithPlainBody(function));
}

}  // namespace collage
