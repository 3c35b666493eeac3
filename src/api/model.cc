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

Model MakeModel(std::string name, Module module, std::vector<std::string> bound_inputs = {},
                std::vector<std::string> output_names = {}) {
  return Model(std::make_shared<const Model::State>(
      Model::State{std::move(name), std::move(module), std::move(bound_inputs), std::move(output_names)}));
}

Model LoadFile(const std::string& path, const ModelBindings& bindings) {
  return Translating<ModelError>([&] {
    LoadedModel loaded = LoadModelWithBindings(path, bindings);
    return MakeModel(path, std::move(loaded.module), std::move(loaded.bound_inputs), std::move(loaded.output_names));
  });
}

}  // namespace

std::pair<std::string, std::vector<int64_t>> ParseInputShape(std::string_view text) {
  const auto [name, shape] = Translating<UsageError>([&] { return ParseInputShapeOverride(text); });
  return {name, std::vector<int64_t>(shape.begin(), shape.end())};
}

Model Model::Load(const std::string& path, const InputShapes& input_shapes) {
  return LoadFile(path, BindingsOf(input_shapes));
}

Model Model::Load(const std::string& path, const InputBindings& bindings) {
  ModelBindings library_bindings = BindingsOf(bindings.shapes);
  for (const auto& [name, value] : bindings.values) {
    library_bindings.values.emplace(name, ToLibraryTensor(value).Clone());
  }
  return LoadFile(path, library_bindings);
}

Model Model::FromOnnxBytes(std::string_view bytes, const std::string& name, const InputShapes& input_shapes) {
  return Translating<ModelError>([&] {
    OnnxImportOptions options;
    options.input_shapes = BindingsOf(input_shapes).shapes;
    const std::span<const std::byte> data(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
    OnnxModel imported = ImportOnnxBytes(data, name, options);
    return MakeModel(name, std::move(imported.module), {}, std::move(imported.output_names));
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

const std::vector<std::string>& Model::bound_inputs() const { return state_->bound_inputs; }

const std::vector<std::string>& Model::output_names() const { return state_->output_names; }

std::string Model::ToText() const { return PrintModule(state_->module); }

}  // namespace collage::api
