#include "backend/library_test_util.h"

#include "parser/parser.h"

namespace collage::testing {

Function ParseMainWithRandomConstants(const std::string& text, const std::vector<Shape>& meta_shapes, uint64_t seed) {
  std::vector<Tensor> meta;
  for (size_t k = 0; k < meta_shapes.size(); ++k) meta.push_back(Tensor::Random(DType::kF32, meta_shapes[k], seed + k));
  return ParseModule(text, "test", meta).main();
}

Function ConvolutionReluAdd() {
  return ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 3, 9, 11), f32], %y: Tensor[(1, 5, 9, 11), f32]) {
  %0 = constant(meta[0], Tensor[(5, 3, 3, 3), f32])
  %1 = nn.conv2d(%x, %0, padding=[1, 1, 1, 1])
  %2 = nn.relu(%1)
  add(%2, %y)
}
)",
                                      {{5, 3, 3, 3}});
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
