#include "frontend/onnx/onnx_op_converters.h"

#include "support/error.h"

namespace collage {

const OnnxConverterTable& OnnxConverterTable::Global() {
  static const OnnxConverterTable* table = [] {
    auto* created = new OnnxConverterTable();
    RegisterElementwiseConverters(*created);
    RegisterReductionConverters(*created);
    RegisterShapeConverters(*created);
    RegisterNNConverters(*created);
    RegisterActivationConverters(*created);
    RegisterIndexingConverters(*created);
    RegisterLossConverters(*created);
    RegisterQuantizationConverters(*created);
    RegisterRecurrentConverters(*created);
    RegisterSignalConverters(*created);
    RegisterDataDependentConverters(*created);
    return created;
  }();
  return *table;
}

void OnnxConverterTable::Add(const std::string& op_type, OnnxConverter converter) {
  Check(converters_.count(op_type) == 0, "ONNX converter for '" + op_type + "' registered twice");
  converters_.emplace(op_type, std::move(converter));
}

const OnnxConverter* OnnxConverterTable::Find(const std::string& op_type) const {
  auto it = converters_.find(op_type);
  return it == converters_.end() ? nullptr : &it->second;
}

std::vector<std::string> OnnxConverterTable::OpTypes() const {
  std::vector<std::string> names;
  for (const auto& [name, converter] : converters_) names.push_back(name);
  return names;
}

}  // namespace collage
