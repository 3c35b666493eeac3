#include "pipeline/model_loader.h"

#include <filesystem>
#include <iostream>

#include "frontend/onnx/onnx_importer.h"
#include "parser/parser.h"
#include "pass/standard_passes.h"
#include "support/error.h"

namespace collage {

LoadedModel LoadModelWithBindings(const std::string& path, const ModelBindings& bindings) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw Error("model file '" + path + "' does not exist");
  if (std::filesystem::is_directory(status)) throw Error("model file '" + path + "' is a directory");
  if (std::filesystem::path(path).extension() == ".onnx") {
    OnnxImportOptions options;
    options.input_shapes = bindings.shapes;
    options.input_values = bindings.values;
    OnnxModel model = ImportOnnxFile(path, options);
    if (!model.inputs_with_initializers.empty()) {
      std::string names;
      for (const std::string& name : model.inputs_with_initializers) {
        names += (names.empty() ? "'" : ", '") + name + "'";
      }
      std::cerr << "collage: note: " << path << ": " << model.inputs_with_initializers.size()
                << " graph inputs have an initializer, their default value in ONNX IR version 4 and later; they are "
                   "constants with those values, not parameters: "
                << names << "\n";
    }
    return {std::move(model.module), std::move(model.specialized_inputs), std::move(model.output_names)};
  }
  if (!bindings.shapes.empty()) {
    throw Error(path + ": --shape binds ONNX graph inputs; a text-IR model has static shapes");
  }
  return {ParseModuleFile(path), {}, {}};
}

Module LoadModel(const std::string& path, const ModelBindings& bindings) {
  return LoadModelWithBindings(path, bindings).module;
}

Module LoadModelForPlacement(const std::string& path, const ModelBindings& bindings) {
  return StandardPipeline()(LoadModel(path, bindings));
}

}  // namespace collage
