#include "model_loader.h"

#include <filesystem>

#include "ir/parser.h"
#include "support/error.h"

namespace collage::cli {

Module LoadModel(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status)) throw Error("model file '" + path + "' does not exist");
  if (std::filesystem::is_directory(status)) throw Error("model file '" + path + "' is a directory");
  if (std::filesystem::path(path).extension() == ".onnx") {
    throw Error(path + ": ONNX import is not built yet; convert the model to a text-IR file (.cir)");
  }
  return ParseModuleFile(path);
}

}  // namespace collage::cli
