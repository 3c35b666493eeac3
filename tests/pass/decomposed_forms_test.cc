// The decomposed forms against torch's own ONNX exports (tests/pass/export_torch_blocks.py):
// each form matches the ops the exporter writes for its module, the fused op that replaces a
// match computes torch's outputs, and look-alikes (one use of x replaced by another value, a
// wrong constant, another axis) are refused.
#include "pass/fused_forms/decomposed_forms.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "ir/op_registry.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

struct BlockCase {
  std::string block;  // fixture name
  std::string form;
  // The nodes the form covers in the export; 0: every call and projection of the graph.
  size_t expected_inside = 0;
  // The op calls left once the form is fused.
  size_t fused_calls = 1;
};

size_t CountCallsAndProjections(const Function& function) {
  size_t count = 0;
  for (const Expr& node : PostOrder(function->body)) {
    if (As<CallNode>(node) != nullptr || As<TupleGetItemNode>(node) != nullptr || As<TupleNode>(node) != nullptr) ++count;
  }
  return count;
}

size_t CountOpCalls(const Function& function) {
  size_t count = 0;
  for (const Expr& node : PostOrder(function->body)) {
    if (const auto* call = As<CallNode>(node); call != nullptr && call->op() != nullptr) ++count;
  }
  return count;
}

class DecomposedFormTest : public ::testing::TestWithParam<BlockCase> {
 protected:
  void SetUp() override {
    std::string why;
    dir_ = testing::TorchBlockDir(&why);
    if (dir_.empty()) GTEST_SKIP() << why;
  }
  std::filesystem::path dir_;
};

TEST_P(DecomposedFormTest, MatchesTorchExport) {
  const BlockCase& test_case = GetParam();
  const std::string base = (dir_ / test_case.block).string();
  const OnnxModel model = ImportOnnxFile(base + ".onnx");
  const Function main = model.module.main();
  const DecomposedForm& form = DecomposedFormNamed(test_case.form);
  const size_t expected = test_case.expected_inside != 0 ? test_case.expected_inside : CountCallsAndProjections(main);
  size_t largest = 0;
  for (const PatternMatch& match : FindAllMatches(form.pattern, main, form.accepts)) {
    largest = std::max(largest, match.inside.size());
  }
  EXPECT_EQ(largest, expected) << "the largest accepted match of " << test_case.form << " in " << test_case.block;

  if (!form.fuse) return;
  const Expr fused = FuseDecomposedForms(main, {test_case.form});
  const Function fused_function = Downcast<FunctionNode>(fused);
  ASSERT_NE(fused_function, nullptr);
  EXPECT_EQ(CountOpCalls(fused_function), test_case.fused_calls) << "the form is one fused call";
  const std::vector<Value> arguments = testing::ArgumentsByName(model, ReadNpz(base + ".inputs.npz"));
  const NamedTensors torch_outputs = ReadNpz(base + ".outputs.npz");
  EXPECT_TRUE(testing::OutputsMatch(model, Evaluate(fused_function, arguments), torch_outputs, 1e-5));
}

INSTANTIATE_TEST_SUITE_P(
    TorchBlocks, DecomposedFormTest,
    ::testing::Values(BlockCase{"layer_norm", "layer_norm"}, BlockCase{"layer_norm_no_affine", "layer_norm"},
                      BlockCase{"rms_norm", "rms_norm"}, BlockCase{"gelu_erf", "gelu_erf"},
                      BlockCase{"gelu_tanh", "gelu_tanh"}, BlockCase{"silu", "silu"},
                      BlockCase{"hard_sigmoid", "hard_sigmoid"}, BlockCase{"hard_swish", "hard_swish"},
                      BlockCase{"scaled_masked_softmax", "scaled_masked_softmax"},
                      // The head splits, the scaled masked product, softmax, the product with
                      // the values and the head merge: all but the projection and its split,
                      // which stay beside nn.attention (projection, bias, split; MHA: its
                      // transposes, projections, biases, slices and reshapes).
                      BlockCase{"attention", "scaled_dot_product_attention", 13, 4},
                      BlockCase{"multihead_attention", "scaled_dot_product_attention", 12, 11},
                      BlockCase{"bias_residual_layer_norm", "bias_residual_layer_norm"},
                      BlockCase{"squeeze_excitation", "squeeze_excitation"},
                      BlockCase{"squeeze_excitation_silu", "squeeze_excitation"}),
    [](const ::testing::TestParamInfo<BlockCase>& info) { return info.param.block; });

// The negative control of the comparison above: the other GELU is not within its tolerance.
TEST(DecomposedFormComparison, OtherGeluApproximationIsRefused) {
  std::string why;
  const std::filesystem::path dir = testing::TorchBlockDir(&why);
  if (dir.empty()) GTEST_SKIP() << why;
  const std::string base = (dir / "gelu_tanh").string();
  const OnnxModel model = ImportOnnxFile(base + ".onnx");
  const Function main = model.module.main();
  const Var x = main->params[0];
  const Function erf_gelu = MakeFunction({x}, CallOp("nn.gelu", {x}, {{"approximate", std::string("none")}}));
  const std::vector<Value> arguments = testing::ArgumentsByName(model, ReadNpz(base + ".inputs.npz"));
  EXPECT_FALSE(testing::OutputsMatch(model, Evaluate(erf_gelu, arguments), ReadNpz(base + ".outputs.npz"), 1e-5));
}

size_t AcceptedMatches(const std::string& form_name, const std::string& text) {
  const DecomposedForm& form = DecomposedFormNamed(form_name);
  return FindAllMatches(form.pattern, testing::ParseMainFunction(text), form.accepts).size();
}

std::string Scalar(const std::string& value) { return "constant([" + value + "], Tensor[(), f32])"; }

// Look-alikes: the tree pattern matches them, the form's checks refuse them.
TEST(DecomposedFormLookAlikes, AreRefused) {
  EXPECT_EQ(AcceptedMatches("silu", "def @main(%x: Tensor[(4), f32]) { multiply(%x, sigmoid(%x)) }"), 1u);
  EXPECT_EQ(AcceptedMatches("silu",
                            "def @main(%x: Tensor[(4), f32], %y: Tensor[(4), f32]) { multiply(%x, sigmoid(%y)) }"),
            0u);
  auto gelu = [](const std::string& half) {
    return "def @main(%x: Tensor[(4), f32]) {\n  multiply(multiply(%x, add(erf(divide(%x, " + Scalar("1.4142135") +
           ")), " + Scalar("1") + ")), " + Scalar(half) + ")\n}";
  };
  EXPECT_EQ(AcceptedMatches("gelu_erf", gelu("0.5")), 1u);
  EXPECT_EQ(AcceptedMatches("gelu_erf", gelu("0.4")), 0u);
  auto layer_norm = [](const std::string& axis) {
    return "def @main(%x: Tensor[(2, 8), f32]) {\n  %0 = subtract(%x, mean(%x, axis=[" + axis +
           "], keepdims=1))\n  divide(%0, sqrt(add(mean(power(%0, " + Scalar("2") + "), axis=[" + axis +
           "], keepdims=1), " + Scalar("1e-05") + ")))\n}";
  };
  EXPECT_EQ(AcceptedMatches("layer_norm", layer_norm("1")), 1u);
  EXPECT_EQ(AcceptedMatches("layer_norm", layer_norm("0")), 0u);
  auto hard_swish = [](const std::string& slope) {
    return "def @main(%x: Tensor[(4), f32]) {\n  multiply(%x, clip(add(multiply(%x, " + Scalar(slope) + "), " +
           Scalar("0.5") + "), a_min=0.0, a_max=1.0))\n}";
  };
  EXPECT_EQ(AcceptedMatches("hard_swish", hard_swish("0.16666667")), 1u);
  EXPECT_EQ(AcceptedMatches("hard_swish", hard_swish("0.2")), 0u);
}

}  // namespace
}  // namespace collage
