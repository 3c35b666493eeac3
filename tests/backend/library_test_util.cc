#include "backend/library_test_util.h"

#include "parser/parser.h"

namespace collage::testing {

Function ParseMainWithRandomConstants(const std::string& text, const std::vector<Shape>& meta_shapes, uint64_t seed) {
  std::vector<Tensor> meta;
  for (size_t k = 0; k < meta_shapes.size(); ++k) meta.push_back(Tensor::Random(DType::kF32, meta_shapes[k], seed + k));
  return ParseModule(text, "test", meta).main();
}

std::string CompileError(const Backend& backend, const Function& function) {
  try {
    backend.Compile(function, {});
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace collage::testing
