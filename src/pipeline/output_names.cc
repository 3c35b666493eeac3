#include "pipeline/output_names.h"

namespace collage {

std::vector<std::pair<std::string, Tensor>> NameOutputs(const Value& result) {
  if (!result.is_tuple()) return {{"output", result.tensor()}};
  std::vector<std::pair<std::string, Tensor>> outputs;
  for (Tensor& tensor : result.Flatten()) outputs.emplace_back("output" + std::to_string(outputs.size()), tensor);
  return outputs;
}

}  // namespace collage
