#include "interpreter/calibration.h"

#include "interpreter/interpreter.h"

namespace collage {

RangesByNode CalibrateRanges(const Function& function, const std::vector<std::vector<Value>>& inputs,
                             double percentile) {
  RangesByNode ranges;
  for (const std::vector<Value>& arguments : inputs) {
    Evaluate(function, arguments, [&](const ExprNode& node, const Value& value) {
      if (value.is_tuple() || value.tensor().dtype() != DType::kF32) return;
      const Tensor& tensor = value.tensor();
      const float* data = tensor.data<float>();
      const ActivationRange range = RangeOf(std::vector<float>(data, data + tensor.NumElements()), percentile);
      const auto [entry, inserted] = ranges.emplace(&node, range);
      if (!inserted) entry->second = Widen(entry->second, range);
    });
  }
  return ranges;
}

std::vector<std::vector<Value>> RandomCalibrationInputs(const Function& function, size_t count, uint64_t first_seed) {
  std::vector<std::vector<Value>> inputs;
  for (size_t i = 0; i < count; ++i) inputs.push_back(RandomArguments(function, first_seed + 1000 * i));
  return inputs;
}

}  // namespace collage
