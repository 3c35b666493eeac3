// The decomposed forms on the zoo's exports: every instance the architectures have is found,
// counted by the matches that cover a whole instance (the form's alternatives also match its
// parts, e.g. a layer norm without its shift).
#include <gtest/gtest.h>

#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "pass/fused_forms/decomposed_forms.h"
#include "pattern/pattern_matcher.h"

namespace collage {
namespace {

struct ZooFormCase {
  std::string name;
  std::string model;
  std::string form;
  size_t inside_per_instance;
  size_t instances;
};

class DecomposedFormZooTest : public ::testing::TestWithParam<ZooFormCase> {};

TEST_P(DecomposedFormZooTest, FindsEveryInstance) {
  const ZooFormCase& test_case = GetParam();
  const std::filesystem::path dir = testing::ZooCacheDir();
  if (const std::string why = testing::EnsureZooModelExported(dir, test_case.model); !why.empty()) GTEST_SKIP() << why;
  const OnnxModel model = ImportOnnxFile((dir / (test_case.model + ".onnx")).string());
  const DecomposedForm& form = DecomposedFormNamed(test_case.form);
  size_t instances = 0;
  for (const PatternMatch& match : FindAllMatches(form.pattern, model.module.main(), form.accepts)) {
    if (match.inside.size() == test_case.inside_per_instance) ++instances;
  }
  EXPECT_EQ(instances, test_case.instances);
}

// GPT-2 and ViT: 12 blocks with two layer norms each and a final one (mean, subtract, power,
// mean, add, sqrt, divide, multiply, add); one feed-forward GELU per block (tanh form: three
// products for the cube and its factor, add, product, tanh, add, two products; erf form:
// divide, erf, add, two products). GPT-2's attention: three head splits (reshape, transpose),
// the product, the scale, the causal mask (where), softmax, the product with the values and
// the head merge. BERT exports its layer norms whole, and the erf GELU. EfficientNet-B0: 16
// MBConv blocks, each with a squeeze-and-excitation whose activation is SiLU (pool, two
// convolutions with their biases, sigmoid and product for SiLU, the gate's sigmoid and
// product), and SiLU after the stem, each expansion, each depthwise convolution and the head
// (1 + 15 + 16 + 1 = 33) plus the 16 inside the SE blocks.
INSTANTIATE_TEST_SUITE_P(
    ZooStructure, DecomposedFormZooTest,
    ::testing::Values(ZooFormCase{"gpt2_layer_norm", "gpt2_decoder", "layer_norm", 9, 25},
                      ZooFormCase{"gpt2_gelu_tanh", "gpt2_decoder", "gelu_tanh", 9, 12},
                      ZooFormCase{"gpt2_attention", "gpt2_decoder", "scaled_dot_product_attention", 13, 12},
                      ZooFormCase{"vit_layer_norm", "vit_b_16", "layer_norm", 9, 25},
                      ZooFormCase{"vit_gelu_erf", "vit_b_16", "gelu_erf", 5, 12},
                      ZooFormCase{"bert_gelu_erf", "bert_encoder", "gelu_erf", 5, 12},
                      ZooFormCase{"efficientnet_squeeze_excitation", "efficientnet_b0", "squeeze_excitation", 9, 16},
                      ZooFormCase{"efficientnet_silu", "efficientnet_b0", "silu", 2, 49}),
    [](const ::testing::TestParamInfo<ZooFormCase>& info) { return info.param.name; });

}  // namespace
}  // namespace collage
