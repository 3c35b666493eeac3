#include "collage/model.h"

#include <span>

#include "api/error_translation.h"
#include "api/model_state.h"
#include "api/tensor_conversion.h"
#include "frontend/onnx/onnx_importer.h"
#include "ir/printer.h"
#include "parser/parser.h"
#include "pipeline/model_loader.h"

namespace collage::api {
namespace {

ModelBindings BindingsOf(const InputShapes& input_shapes) {
  ModelBindings bindings;
  for (const auto& [name, shape] : input_shapes) bindings.shapes.emplace(name, Shape(shape.begin(), shape.end()));
  return bindings;
}

Model MakeModel(std::string name, Module module) {
  return Model(std::make_shared<const Model::State>(Model::State{std::move(name), std::move(module)}));
}

}  // namespace

Model Model::Load(const std::string& path, const InputShapes& input_shapes) {
  return Translating<ModelError>([&] { return MakeModel(path, LoadModel(path, BindingsOf(input_shapes))); });
}

Model Model::FromOnnxBytes(std::string_view bytes, const std::string& name, const InputShapes& input_shapes) {
  return Translating<ModelError>([&] {
    OnnxImportOptions options;
    options.input_shapes = BindingsOf(input_shapes).shapes;
    const std::span<const std::byte> data(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    return MakeModel(name, ImportOnnxBytes(data, name, options).module);
  });
}

Model Model::FromText(std::string_view text, const std::string& name) {
  return Translating<ModelError>([&] { return MakeModel(name, ParseModule(text, name)); });
}

const std::string& Model::name() const { return state_->name; }

std::vector<TensorInfo> Model::inputs() const {
  std::vector<TensorInfo> inputs;
  for (const Var& parameter : state_->module.main()->params) inputs.push_back(DescribeParameter(parameter));
  return inputs;
}

std::string Model::ToText() const { return PrintModule(state_->module); }

}  // namespace collage::api
