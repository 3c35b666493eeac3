// The onednn backend's convolutions and matrix products with their fused epilogues (bias,
// residual add through the sum post-op, activations) against the reference interpreter,
// as plain ops and as Composite functions of its pattern table.
#include <gtest/gtest.h>

#include <algorithm>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/flat_partition.h"
#include "backend/library_test_util.h"
#include "backend/onednn/epilogue.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/partition_lowering.h"
#include "interpreter/interpreter.h"
#include "pass/inline_composites.h"
#include "pattern/pattern_matcher.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

class OnednnFusionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  BackendPtr backend_;
};

TEST_F(OnednnFusionTest, ConvolutionWithStridesAsymmetricPaddingOddSizes) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 3, 9, 11), f32]) {
  %0 = constant(meta[0], Tensor[(5, 3, 3, 2), f32])
  nn.conv2d(%x, %0, strides=[2, 1], padding=[1, 2, 0, 1])
}
)",
                                                                       {{5, 3, 3, 2}})));
}

TEST_F(OnednnFusionTest, GroupedDilatedAndDepthwiseConvolutions) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 8, 10, 9), f32]) {
  %0 = constant(meta[0], Tensor[(12, 4, 3, 3), f32])
  nn.conv2d(%x, %0, groups=2, dilation=[2, 3], padding=[2, 3, 1, 2])
}
)",
                                                                       {{12, 4, 3, 3}})));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 7, 7), f32]) {
  %0 = constant(meta[0], Tensor[(16, 1, 3, 3), f32])
  nn.conv2d(%x, %0, groups=16, strides=[2, 2], padding=[1, 1, 1, 1])
}
)",
                                                                       {{16, 1, 3, 3}})));
}

// Transposed convolutions: DCGAN's stride-2 upsampling with its folded bias and relu fused,
// output padding (less padding cut off at the end, below zero without padding), groups with
// dilation (the weight view swaps the channel axes within each group), and variable weights.
TEST_F(OnednnFusionTest, TransposedConvolutions) {
  const std::vector<std::pair<std::string, std::vector<Shape>>> cases = {
      {R"(
def @main(%x: Tensor[(1, 6, 4, 4), f32]) {
  %0 = constant(meta[0], Tensor[(6, 5, 4, 4), f32])
  %1 = nn.conv2d_transpose(%x, %0, strides=[2, 2], padding=[1, 1, 1, 1])
  %b = constant(meta[1], Tensor[(5), f32])
  nn.relu(nn.bias_add(%1, %b))
}
)",
       {{6, 5, 4, 4}, {5}}},
      {R"(
def @main(%x: Tensor[(2, 3, 5, 4), f32]) {
  %0 = constant(meta[0], Tensor[(3, 4, 3, 2), f32])
  nn.conv2d_transpose(%x, %0, strides=[3, 2], padding=[1, 0, 2, 1], output_padding=[2, 1])
}
)",
       {{3, 4, 3, 2}}},
      {R"(
def @main(%x: Tensor[(1, 6, 5, 6), f32]) {
  %0 = constant(meta[0], Tensor[(6, 2, 3, 3), f32])
  tanh(nn.conv2d_transpose(%x, %0, groups=3, dilation=[2, 1], strides=[1, 2], padding=[1, 1, 0, 1]))
}
)",
       {{6, 2, 3, 3}}},
  };
  for (const auto& [text, constants] : cases) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(text, constants))) << text;
  }
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%x: Tensor[(1, 4, 3, 3), f32], %w: Tensor[(4, 2, 2, 2), f32]) {
  nn.conv2d_transpose(%x, %w, strides=[2, 2], output_padding=[1, 1])
}
)")));
}

// A ResNeXt block: 1x1 convolutions run channels-last, the grouped 3x3 convolution between
// them would pick a layout blocked by the group's 4 channels. It stays channels-last instead, so
// the only reorders are the partition's input and output.
TEST_F(OnednnFusionTest, GroupedConvolutionBetweenChannelsLastOnesNeedsNoReorder) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 64, 14, 14), f32]) {
  %w0 = constant(meta[0], Tensor[(128, 64, 1, 1), f32])
  %w1 = constant(meta[1], Tensor[(128, 4, 3, 3), f32])
  %w2 = constant(meta[2], Tensor[(256, 128, 1, 1), f32])
  %0 = nn.relu(nn.conv2d(%x, %w0))
  %1 = nn.relu(nn.conv2d(%0, %w1, groups=32, padding=[1, 1, 1, 1]))
  nn.conv2d(%1, %w2)
}
)",
                                                         {{128, 64, 1, 1}, {128, 4, 3, 3}, {256, 128, 1, 1}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  int reorders = 0;
  for (const onednn::Step& step : program.steps) {
    reorders += step.primitive.get_kind() == dnnl::primitive::kind::reorder ? 1 : 0;
  }
  // Only AVX-512 CPUs have an optimized grouped convolution that takes channels-last; on AVX2
  // oneDNN blocks the grouped convolution's channels, and two more reorders are right.
  const auto avx512_core = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
  if ((static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & avx512_core) != avx512_core) {
    GTEST_SKIP() << "no AVX-512 (oneDNN's effective ISA): " << program.steps.size() << " steps, " << reorders
                 << " reorders";
  }
  EXPECT_EQ(program.steps.size(), 5u);
  EXPECT_EQ(reorders, 2);
}

TEST_F(OnednnFusionTest, ConvolutionWithVariableWeights) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%x: Tensor[(1, 4, 6, 6), f32], %w: Tensor[(6, 4, 1, 1), f32]) {
  nn.conv2d(%x, %w)
}
)")));
}

TEST_F(OnednnFusionTest, ConvolutionBiasActivations) {
  for (const std::string activation : {"nn.relu(%2)", "sigmoid(%2)", "tanh(%2)", "nn.gelu(%2)",
                                       "nn.leaky_relu(%2, alpha=0.2)", "clip(%2, a_min=-0.5, a_max=0.25)"}) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 8, 8), f32]) {
  %0 = constant(meta[0], Tensor[(32, 16, 3, 3), f32])
  %1 = nn.conv2d(%x, %0, padding=[1, 1, 1, 1])
  %b = constant(meta[1], Tensor[(32), f32])
  %2 = nn.bias_add(%1, %b)
  )" + activation + R"(
}
)",
                                                                         {{32, 16, 3, 3}, {32}})))
        << activation;
  }
}

TEST_F(OnednnFusionTest, BiasAsAddOfAChannelConstant) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 3, 5, 5), f32]) {
  %0 = constant(meta[0], Tensor[(7, 3, 3, 3), f32])
  %1 = nn.conv2d(%x, %0)
  %2 = constant(meta[1], Tensor[(7, 1, 1), f32])
  add(%2, %1)
}
)",
                                                                       {{7, 3, 3, 3}, {7, 1, 1}})));
}

// The kinds of the primitives a partition lowers to, in order (reorders left out).
std::vector<std::string> PrimitiveKinds(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  std::vector<std::string> kinds;
  for (const onednn::Step& step : program.steps) {
    const std::string kind = onednn::KindName(step.primitive);
    if (kind != "reorder") kinds.push_back(kind);
  }
  return kinds;
}

int CountOf(const std::vector<std::string>& kinds, const std::string& kind) {
  return static_cast<int>(std::count(kinds.begin(), kinds.end(), kind));
}

// DenseNet's batch norm + relu after a concatenation, as SimplifyInference leaves it (a
// per-channel scale and shift): one binary primitive with the shift and the relu as post-ops,
// on a blocked input (whole and partial channel blocks) and on a plain one (a parameter, the
// shift a bias_add), and a binary op of two tensors with an activation.
TEST_F(OnednnFusionTest, ScaleShiftActivationIsOneBinaryPrimitive) {
  for (const int64_t growth : {16, 20}) {
    const std::string c = std::to_string(8 + growth);
    const Function dense_layer = ParseMainWithRandomConstants(
        "def @main(%x: Tensor[(1, 8, 9, 9), f32]) {\n"
        "  %w = constant(meta[0], Tensor[(" + std::to_string(growth) + ", 8, 3, 3), f32])\n"
        "  %s = constant(meta[1], Tensor[(" + c + ", 1, 1), f32])\n"
        "  %t = constant(meta[2], Tensor[(" + c + ", 1, 1), f32])\n"
        "  %v = constant(meta[3], Tensor[(8, " + c + ", 1, 1), f32])\n"
        "  %0 = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]))\n"
        "  %1 = concatenate(%x, %0, axis=1)\n"
        "  %2 = nn.relu(add(multiply(%1, %s), %t))\n"
        "  nn.conv2d(%2, %v)\n"
        "}\n",
        {{growth, 8, 3, 3}, {8 + growth, 1, 1}, {8 + growth, 1, 1}, {8, 8 + growth, 1, 1}});
    const std::vector<std::string> kinds = PrimitiveKinds(dense_layer);
    EXPECT_EQ(CountOf(kinds, "binary"), 1) << "growth " << growth;
    EXPECT_EQ(CountOf(kinds, "eltwise"), 0) << "growth " << growth;
    EXPECT_TRUE(MatchesReference(*backend_, dense_layer)) << "growth " << growth;
  }
  const Function plain = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 12, 5, 5), f32]) {
  %s = constant(meta[0], Tensor[(12, 1, 1), f32])
  %t = constant(meta[1], Tensor[(12), f32])
  clip(nn.bias_add(multiply(%x, %s), %t), a_min=0.1, a_max=0.6)
}
)",
                                                      {{12, 1, 1}, {12}});
  EXPECT_EQ(PrimitiveKinds(plain), std::vector<std::string>{"binary"});
  EXPECT_TRUE(MatchesReference(*backend_, plain));
  const Function sequence = ParseMainFunction(R"(
def @main(%x: Tensor[(1, 5, 7), f32], %y: Tensor[(1, 5, 7), f32]) {
  tanh(subtract(%x, %y))
}
)");
  EXPECT_EQ(PrimitiveKinds(sequence), std::vector<std::string>{"binary"});
  EXPECT_TRUE(MatchesReference(*backend_, sequence));
}

// A residual block: the second convolution adds the first one's input (a parameter, copied
// into the destination) and a third adds a convolution result (summed in place). Running
// the executable twice checks that the sum does not accumulate across runs.
TEST_F(OnednnFusionTest, ResidualAddsThroughTheSumPostOpAcrossRuns) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 6, 6), f32]) {
  %w0 = constant(meta[0], Tensor[(16, 16, 3, 3), f32])
  %w1 = constant(meta[1], Tensor[(16, 16, 1, 1), f32])
  %b = constant(meta[2], Tensor[(16), f32])
  %0 = nn.conv2d(%x, %w0, padding=[1, 1, 1, 1])
  %1 = nn.bias_add(%0, %b)
  %2 = add(%1, %x)
  %3 = nn.relu(%2)
  %4 = nn.conv2d(%3, %w1)
  %5 = nn.conv2d(%3, %w1)
  %6 = nn.relu(%5)
  %7 = add(%4, %6)
  nn.relu(%7)
}
)",
                                                         {{16, 16, 3, 3}, {16, 16, 1, 1}, {16}});
  EXPECT_TRUE(MatchesReference(*backend_, function, 1));
  EXPECT_TRUE(MatchesReference(*backend_, function, 2, /*threads=*/1));
}

// ResNet's blocks inside one partition: %0, a block's input, is read by the block's first
// convolution and then added by its last one, which may overwrite it (no copy step). %2 is read
// again after the sum that adds it, so that sum must work on a copy: the later convolution
// would otherwise see the sum. Both run twice, so nothing accumulates across runs.
TEST_F(OnednnFusionTest, ResidualSumOverwritesItsAddendOnlyAfterItsOtherReaders) {
  const std::string block_input_read_before = R"(
def @main(%x: Tensor[(1, 16, 6, 6), f32]) {
  %w = constant(meta[0], Tensor[(16, 16, 1, 1), f32])
  %0 = nn.relu(nn.conv2d(%x, %w))
  %1 = nn.relu(nn.conv2d(%0, %w))
  nn.relu(add(nn.conv2d(%1, %w), %0))
}
)";
  const std::string addend_read_after = R"(
def @main(%x: Tensor[(1, 16, 6, 6), f32]) {
  %w = constant(meta[0], Tensor[(16, 16, 1, 1), f32])
  %2 = nn.relu(nn.conv2d(%x, %w))
  %3 = nn.relu(add(nn.conv2d(%2, %w), %2))
  add(%3, nn.conv2d(%2, %w))
}
)";
  int copies = -1;
  for (const std::string& text : {block_input_read_before, addend_read_after}) {
    const Function function = ParseMainWithRandomConstants(text, {{16, 16, 1, 1}});
    EXPECT_TRUE(MatchesReference(*backend_, function, 1)) << text;
    EXPECT_TRUE(MatchesReference(*backend_, function, 2, /*threads=*/1)) << text;
    const onednn::Program program =
        onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
    int reorders = 0;
    for (const onednn::Step& step : program.steps) {
      reorders += step.primitive.get_kind() == dnnl::primitive::kind::reorder ? 1 : 0;
    }
    if (copies < 0) {
      copies = reorders;  // the partition's input and output
    } else {
      EXPECT_EQ(reorders, copies + 1) << "the addend read after the sum is copied first";
    }
  }
  EXPECT_EQ(copies, 2);
}

// A convolution that adds its own input: the sum may not overwrite the addend, which the
// convolution is still reading (it did, and every element came out wrong).
TEST_F(OnednnFusionTest, ResidualSumNeverOverwritesTheProductsOwnInput) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 6, 6), f32]) {
  %w = constant(meta[0], Tensor[(16, 16, 3, 3), f32])
  %0 = nn.relu(%x)
  add(nn.conv2d(%0, %w, padding=[1, 1, 1, 1]), %0)
}
)",
                                                         {{16, 16, 3, 3}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
}

// What the epilogue planner fuses in an imported ResNet bottleneck: bias_add, the residual
// add (as a sum) and the relu after the first convolution; bias_add only after the second,
// whose result is the addend.
TEST(OnednnEpilogueTest, FusesBiasResidualAndActivationOfAResNetBlock) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 8, 4, 4), f32]) {
  %w = constant(meta[0], Tensor[(8, 8, 1, 1), f32])
  %b = constant(meta[1], Tensor[(8), f32])
  %0 = nn.conv2d(%x, %w)
  %1 = nn.bias_add(%0, %b)
  %2 = nn.conv2d(%x, %w)
  %3 = nn.bias_add(%2, %b)
  %4 = add(%1, %3)
  nn.relu(%4)
}
)",
                                                         {{8, 8, 1, 1}, {8}});
  const FlatPartition partition = FlattenPartition(function, "onednn");
  std::vector<bool> fused(partition.calls.size(), false);
  const onednn::Epilogue first = onednn::CollectEpilogue(partition, 0, 1, fused);
  EXPECT_EQ(first.bias, partition.calls[1].inputs[1]);
  ASSERT_EQ(first.post_ops.size(), 2u);
  EXPECT_TRUE(first.post_ops[0].is_sum);
  EXPECT_EQ(first.post_ops[0].addend, partition.calls[3].output);
  EXPECT_FALSE(first.post_ops[1].is_sum);
  EXPECT_EQ(first.calls, (std::vector<int>{1, 4, 5}));
  EXPECT_EQ(first.result, partition.outputs[0]);
  for (int call : first.calls) fused[call] = true;
  const onednn::Epilogue second = onednn::CollectEpilogue(partition, 2, 1, fused);
  EXPECT_EQ(second.calls, (std::vector<int>{3}));
  EXPECT_TRUE(second.post_ops.empty());
  // Without post-ops (deconvolutions) the epilogue ends after the bias.
  const onednn::Epilogue bias_only =
      onednn::CollectEpilogue(partition, 0, 1, std::vector<bool>(partition.calls.size(), false), onednn::FusedPostOps::kNone);
  EXPECT_EQ(bias_only.bias, partition.calls[1].inputs[1]);
  EXPECT_TRUE(bias_only.post_ops.empty());
  EXPECT_EQ(bias_only.calls, (std::vector<int>{1}));
}

TEST_F(OnednnFusionTest, CompiledExecutableIsReusableOnNewInputs) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 8, 5, 5), f32], %r: Tensor[(1, 8, 5, 5), f32]) {
  %w = constant(meta[0], Tensor[(8, 8, 3, 3), f32])
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1])
  %1 = add(%0, %r)
  nn.relu(%1)
}
)",
                                                         {{8, 8, 3, 3}});
  std::unique_ptr<Executable> executable = backend_->Compile(function, {});
  for (uint64_t seed : {3, 4, 5}) {
    const std::vector<Value> args = RandomArguments(function, seed);
    EXPECT_TRUE(CompareValues(InvokeExecutable(*executable, function, args), Evaluate(function, args)).ok()) << seed;
  }
}

// The Composite calls are labels only (composites_are_only_labels): with them inlined, the
// partition lowers to the same primitives.
TEST_F(OnednnFusionTest, RunsCompositesOfItsPatternTable) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 4, 7, 7), f32]) {
  %f = fn (%data: Tensor[(1, 4, 7, 7), f32], %weight: Tensor[(8, 4, 3, 3), f32]) attrs(Composite="onednn.conv2d_act") {
    %0 = nn.conv2d(%data, %weight, strides=[2, 2])
    %1 = constant(meta[0], Tensor[(8), f32])
    %2 = nn.bias_add(%0, %1)
    nn.relu(%2)
  }
  %w = constant(meta[1], Tensor[(8, 4, 3, 3), f32])
  %3 = %f(%x, %w)
  %g = fn (%a: Tensor[(1, 72), f32]) attrs(Composite="onednn.product_act") {
    %4 = constant(meta[2], Tensor[(10, 72), f32])
    %5 = nn.dense(%a, %4)
    tanh(%5)
  }
  %6 = reshape(%3, newshape=[1, 72])
  %g(%6)
}
)",
                                                         {{8}, {8, 4, 3, 3}, {10, 72}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
  ASSERT_TRUE(backend_->composites_are_only_labels());
  const auto kernels = [](const Function& partition) {
    const onednn::Program program =
        onednn::LowerPartition(FlattenPartition(partition, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
    std::vector<std::string> names;
    for (const onednn::Step& step : program.steps) {
      const dnnl::primitive_desc_base description(
          const_cast<dnnl_primitive_desc_t>(step.primitive.get_primitive_desc()), /*weak=*/true);
      names.push_back(std::string(description.impl_info_str()) + " " +
                      std::to_string(static_cast<int>(step.primitive.get_kind())));
    }
    return names;
  };
  EXPECT_EQ(kernels(function), kernels(InlineCompositeCalls(function)));
}

TEST_F(OnednnFusionTest, PatternTableLabelsAndMatches) {
  const SupportDeclaration support = backend_->Support();
  std::vector<std::string> labels;
  for (const BackendPattern& entry : support.patterns) labels.push_back(entry.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"onednn.conv2d_bias", "onednn.conv2d_add", "onednn.conv2d_act",
                                              "onednn.conv2d_add_act", "onednn.product_bias", "onednn.product_act",
                                              "onednn.conv2d_silu", "onednn.product_silu", "onednn.layer_norm",
                                              "onednn.gelu_erf", "onednn.gelu_tanh", "onednn.silu", "onednn.hard_swish"}));
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 4, 5, 5), f32], %r: Tensor[(1, 4, 5, 5), f32]) {
  %w = constant(meta[0], Tensor[(4, 4, 1, 1), f32])
  %b = constant(meta[1], Tensor[(4), f32])
  %0 = nn.conv2d(%x, %w)
  %1 = nn.bias_add(%0, %b)
  %2 = add(%1, %r)
  nn.relu(%2)
}
)",
                                                         {{4, 4, 1, 1}, {4}});
  EXPECT_EQ(FindAllMatches(support.patterns[3].pattern, function->body).size(), 1u);  // rooted at the relu
  EXPECT_EQ(FindAllMatches(support.patterns[0].pattern, function->body).size(), 1u);
}

TEST_F(OnednnFusionTest, DenseWithBiasAndGeluOnThreeDimensionalData) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 3, 19), f32]) {
  %w = constant(meta[0], Tensor[(13, 19), f32])
  %b = constant(meta[1], Tensor[(13), f32])
  %0 = nn.dense(%x, %w)
  %1 = add(%0, %b)
  nn.gelu(%1, approximate="tanh")
}
)",
                                                                       {{13, 19}, {13}})));
}

TEST_F(OnednnFusionTest, MatmulsWithBroadcastBatchesAndTransposes) {
  for (const std::string body : {
           "%a: Tensor[(9, 4), f32], %b: Tensor[(4, 6), f32]) { nn.matmul(%a, %b) }",
           "%a: Tensor[(2, 1, 3, 4), f32], %b: Tensor[(3, 4, 5), f32]) { nn.matmul(%a, %b) }",
           "%a: Tensor[(4), f32], %b: Tensor[(2, 4, 3), f32]) { nn.matmul(%a, %b) }",
           "%a: Tensor[(3, 5, 7), f32], %b: Tensor[(3, 6, 7), f32]) { nn.batch_matmul(%a, %b, transpose_b=1) }",
           "%a: Tensor[(3, 5, 7), f32], %b: Tensor[(1, 7, 2), f32]) { nn.batch_matmul(%a, %b, transpose_b=0) }",
           "%a: Tensor[(3, 5, 7), f32], %b: Tensor[(4, 7), f32]) { nn.dense(%a, %b) }",
       }) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(" + body))) << body;
  }
}

TEST_F(OnednnFusionTest, ProductResidualAddAndMultipleOutputs) {
  // %1 is an output and an input of the next product, so it is not fused away.
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(5, 8), f32], %r: Tensor[(5, 8), f32]) {
  %w = constant(meta[0], Tensor[(8, 8), f32])
  %0 = nn.dense(%x, %w)
  %1 = add(%0, %r)
  %2 = nn.dense(%1, %w)
  %3 = sigmoid(%2)
  (%3, %1, %x)
}
)",
                                                                       {{8, 8}})));
}

}  // namespace
}  // namespace collage
