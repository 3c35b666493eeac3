#include "api/api_test_support.h"

#include "api/model_state.h"
#include "api/tensor_conversion.h"
#include "backend/backend.h"
#include "interpreter/interpreter.h"

namespace collage::testing {

bool HasBackend(const std::string& name) { return BackendRegistry::Global().Find(name) != nullptr; }

std::vector<api::NamedTensor> RandomInputs(const api::Model& model, uint64_t seed) {
  std::vector<api::NamedTensor> inputs;
  for (const api::TensorInfo& info : model.inputs()) {
    const Tensor values = Tensor::Random(api::ToDType(info.element_type), info.shape, seed + inputs.size());
    inputs.push_back({info.name, api::FromLibraryTensor(values)});
  }
  return inputs;
}

Comparison CompareWithInterpreter(const api::Model& model, const std::vector<api::NamedTensor>& inputs,
                                  const std::vector<api::NamedTensor>& outputs) {
  std::vector<Value> arguments;
  for (const api::NamedTensor& input : inputs) arguments.emplace_back(api::ToLibraryTensor(input.tensor));
  std::vector<Tensor> expected = Evaluate(model.state().module.main(), arguments).Flatten();
  std::vector<Tensor> actual;
  for (const api::NamedTensor& output : outputs) actual.push_back(api::ToLibraryTensor(output.tensor));
  return CompareTensorLists(actual, expected);
}

}  // namespace collage::testing
