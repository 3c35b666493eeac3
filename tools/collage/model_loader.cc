#include "model_loader.h"

#include <filesystem>
#include <iostream>

#include "frontend/onnx/onnx_importer.h"
#include "ir/parser.h"
#include "pass/standard_passes.h"
#include "support/error.h"

namespace collage::cli {

Module LoadModel(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw Error("model file '" + path + "' does not exist");
  if (std::filesystem::is_directory(status)) throw Error("model file '" + path + "' is a directory");
  if (std::filesystem::path(path).extension() == ".onnx") {
    OnnxModel model = ImportOnnxFile(path);
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
    return std::move(model.module);
  }
  return ParseModuleFile(path);
}

Module LoadModelForPlacement(const std::string& path) { return StandardPipeline()(LoadModel(path)); }

}  // namespace collage::cli
