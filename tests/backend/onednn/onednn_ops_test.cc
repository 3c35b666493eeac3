// The onednn backend's other op families against the reference interpreter: pooling,
// element-wise (on plain and blocked inputs), binary broadcasting, normalizations, shape
// views and concatenation, partitions mixing layouts, and the errors for what it cannot run.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/library_test_util.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/layout_like.h"
#include "backend/onednn/partition_lowering.h"
#include "ir/printer.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

class OnednnOpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  // `op_text` applied to %c, the (blocked) result of a 16-channel convolution of %x; its
  // constants meta[1], ... have the shapes `more_constants`.
  Function AfterConvolution(const std::string& op_text, const std::string& x_type = "Tensor[(1, 8, 7, 9), f32]",
                            const std::vector<Shape>& more_constants = {}) {
    std::vector<Shape> constants = {{16, 8, 1, 1}};
    constants.insert(constants.end(), more_constants.begin(), more_constants.end());
    return ParseMainWithRandomConstants("def @main(%x: " + x_type + R"() {
  %w = constant(meta[0], Tensor[(16, 8, 1, 1), f32])
  %c = nn.conv2d(%x, %w)
  )" + op_text + "\n}\n",
                                        constants);
  }
  std::string CompileError(const std::string& text) const {
    return testing::CompileError(*backend_, ParseMainFunction(text));
  }
  BackendPtr backend_;
};

TEST_F(OnednnOpsTest, WindowedPooling) {
  for (const std::string pool : {
           "nn.max_pool2d(%c, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
           "nn.max_pool2d(%c, pool_size=[2, 3], strides=[2, 2], ceil_mode=1)",
           "nn.avg_pool2d(%c, pool_size=[3, 3], strides=[2, 2], padding=[1, 0, 1, 1])",
           "nn.avg_pool2d(%c, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], count_include_pad=1)",
           "nn.avg_pool2d(%c, pool_size=[2, 2], strides=[2, 2], ceil_mode=1)",
       }) {
    EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution(pool))) << pool;
  }
  // oneDNN 2.6 dilates max pooling only in its reference implementation.
  EXPECT_NE(testing::CompileError(*backend_, AfterConvolution("nn.max_pool2d(%c, pool_size=[2, 2], dilation=[2, 2])"))
                .find("onednn: slow path: oneDNN runs the pooling_v2 of nn.max_pool2d on (1, 16, 7, 9) only in its "
                      "reference implementation"),
            std::string::npos);
}

TEST_F(OnednnOpsTest, GlobalAndAdaptivePooling) {
  for (const std::string pool : {"nn.global_avg_pool2d(%c)", "nn.global_max_pool2d(%c)",
                                 "nn.adaptive_avg_pool2d(%c, output_size=[2, 3])"}) {
    EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution(pool, "Tensor[(2, 8, 6, 9), f32]"))) << pool;
  }
}

// Pools of a plain input (a partition's parameter, Inception's padded average pools): oneDNN
// runs them there only in a generic loop ("simple_nchw", 4-7 ms per pool in inception_v3), so
// the input is reordered to channel blocks for a jit kernel.
TEST_F(OnednnOpsTest, PoolsOfAPlainInputRunAJitKernel) {
  for (const std::string pool : {"nn.avg_pool2d(%x, pool_size=[3, 3])",
                                 "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])"}) {
    const Function function = ParseMainFunction("def @main(%x: Tensor[(1, 24, 11, 11), f32]) {\n  " + pool + "\n}\n");
    EXPECT_TRUE(MatchesReference(*backend_, function)) << pool;
    const onednn::Program program =
        onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
    for (const onednn::Step& step : program.steps) {
      if (step.primitive.get_kind() != dnnl::primitive::kind::pooling_v2) continue;
      EXPECT_TRUE(onednn::IsJit(onednn::ImplementationName(step.primitive)))
          << pool << ": " << onednn::ImplementationName(step.primitive);
    }
  }
}

TEST_F(OnednnOpsTest, UnaryOpsOnPlainAndBlockedInputs) {
  for (const std::string op :
       {"nn.relu", "sigmoid", "tanh", "nn.gelu", "nn.silu", "nn.hard_swish", "exp", "abs", "negative"}) {
    EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution("%0 = nn.max_pool2d(%c, pool_size=[1, 1])\n  " + op + "(%0)")))
        << op;
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(%x: Tensor[(3, 5, 7), f32]) { " + op + "(%x) }")))
        << op;
  }
  // log, sqrt and rsqrt on positive inputs.
  for (const std::string op : {"log", "sqrt", "rsqrt"}) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(%x: Tensor[(3, 5), f32]) { %0 = exp(%x)\n " + op + "(%0) }")))
        << op;
  }
}

TEST_F(OnednnOpsTest, BinaryOpsWithBroadcasting) {
  for (const std::string op : {"add", "subtract", "multiply", "divide", "maximum", "minimum"}) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(%a: Tensor[(2, 4, 3, 5), f32], %b: Tensor[(4, 1, 1), f32]) { " +
                                                              op + "(%a, %b) }")))
        << op;
    // A broadcast over the middle axes runs only in oneDNN's reference implementation.
    EXPECT_NE(CompileError("def @main(%a: Tensor[(2, 4, 3, 5), f32], %b: Tensor[(4, 1, 5), f32]) { " + op + "(%a, %b) }")
                  .find("onednn: slow path: oneDNN runs the binary of " + op + " on (2, 4, 3, 5), (4, 1, 5) only in"),
              std::string::npos)
        << op;
  }
  // Two blocked operands; a broadcast first operand of a commutative op; bias_add.
  EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution("%0 = nn.relu(%c)\n  multiply(%c, %0)")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(
                                              "def @main(%a: Tensor[(1, 16, 1, 1), f32], %b: Tensor[(2, 16, 3, 3), f32]) { add(%a, %b) }")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(
                                              "def @main(%a: Tensor[(2, 6, 3), f32], %b: Tensor[(6), f32]) { nn.bias_add(%a, %b, axis=1) }")));
}

// The support declaration takes exactly the binary calls Compile lowers: oneDNN broadcasts the
// second operand only, so a broadcast first operand needs a commutative op and a second operand
// of the result's shape. (Declared before, rejected by Compile: a greedy placement failed.)
TEST_F(OnednnOpsTest, SupportDeclarationTakesOnlyTheBinaryBroadcastsCompileLowers) {
  const SupportDeclaration declaration = backend_->Support();
  struct Case {
    std::string text;
    bool runs;
  };
  const std::vector<Case> cases = {
      {"def @main(%a: Tensor[(3), f32], %b: Tensor[(2, 3), f32]) { subtract(%a, %b) }", false},
      {"def @main(%a: Tensor[(3), f32], %b: Tensor[(2, 3), f32]) { divide(%a, %b) }", false},
      {"def @main(%a: Tensor[(1, 3), f32], %b: Tensor[(3, 1), f32]) { minimum(%a, %b) }", false},
      {"def @main(%a: Tensor[(3), f32], %b: Tensor[(2, 3), f32]) { minimum(%a, %b) }", true},
      {"def @main(%a: Tensor[(2, 3), f32], %b: Tensor[(3), f32]) { subtract(%a, %b) }", true},
  };
  for (const Case& c : cases) {
    const Function function = ParseMainFunction(c.text);
    const auto* call = As<CallNode>(function->body);
    ASSERT_NE(call, nullptr);
    EXPECT_EQ(declaration.Supports(*call), c.runs) << c.text;
    if (c.runs) {
      EXPECT_TRUE(MatchesReference(*backend_, function)) << c.text;
    } else {
      EXPECT_NE(CompileError(c.text), "") << c.text;
    }
  }
}

TEST_F(OnednnOpsTest, Normalizations) {
  EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution("nn.softmax(%c, axis=-1)")));
  // oneDNN 2.6 normalizes along an axis other than the innermost only in its reference implementation.
  EXPECT_NE(testing::CompileError(*backend_, AfterConvolution("nn.softmax(%c, axis=1)")).find("onednn: slow path: "),
            std::string::npos);
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(%x: Tensor[(4, 33), f32]) { nn.log_softmax(%x) }")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%x: Tensor[(2, 5, 24), f32], %g: Tensor[(24), f32], %b: Tensor[(24), f32]) {
  nn.layer_norm(%x, %g, %b, epsilon=1e-05)
}
)")));
  // Positive variances.
  EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution(R"(%g = constant(meta[1], Tensor[(16), f32])
  %m = constant(meta[2], Tensor[(16), f32])
  %v = exp(%m)
  nn.batch_norm(%c, %g, %m, %m, %v))",
                                                           "Tensor[(1, 8, 7, 9), f32]", {{16}, {16}})));
}

TEST_F(OnednnOpsTest, ViewsAndConcatenationAcrossLayouts) {
  // Blocked convolution results reordered to plain in the middle for a flatten and a dense.
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 8, 4, 4), f32]) {
  %w = constant(meta[0], Tensor[(16, 8, 3, 3), f32])
  %c = nn.conv2d(%x, %w, padding=[1, 1, 1, 1])
  %p = nn.global_avg_pool2d(%c)
  %f = flatten(%p)
  %d = constant(meta[1], Tensor[(10, 16), f32])
  %0 = nn.dense(%f, %d)
  %1 = expand_dims(%0, axes=[1])
  squeeze(%1, axes=[1])
}
)",
                                                                       {{16, 8, 3, 3}, {10, 16}})));
  EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution("%0 = nn.relu(%c)\n  concatenate(%c, %0, %c, axis=1)")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(
                                              "def @main(%a: Tensor[(2, 3), f32], %b: Tensor[(2, 5), f32]) { %0 = concatenate(%a, %b, axis=-1)\n reshape(%0, newshape=[4, 4]) }")));
}

TEST_F(OnednnOpsTest, TransposesOfBlockedVariableAndConstantData) {
  EXPECT_TRUE(MatchesReference(*backend_, AfterConvolution("transpose(%c, axes=[0, 2, 3, 1])")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(%x: Tensor[(2, 3, 5), f32]) { transpose(%x) }")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(4, 6), f32]) {
  %w = constant(meta[0], Tensor[(6, 5), f32])
  %t = transpose(%w, axes=[-1, 0])
  nn.dense(%x, %t)
}
)",
                                                                       {{6, 5}})));
}

// The implementations of the steps of `function` lowered to oneDNN that are reference ones.
std::vector<std::string> ReferenceImplementations(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  std::vector<std::string> found;
  for (const onednn::Step& step : program.steps) {
    const std::string name = onednn::ImplementationName(step.primitive);
    if (onednn::IsReference(name)) found.push_back(onednn::KindName(step.primitive) + " " + name);
  }
  return found;
}

// ViT's class token: a concatenation along the sequence of (1, 1, C) and (1, S, C), then a
// chain of residual adds. oneDNN may give the concatenation's result a layout that permutes
// the extent-1 batch axis, which it deems equal to the plain one; its jit binary kernels then
// refuse the pair and each add ran in the reference kernel, ~3 ms for 197x768.
TEST_F(OnednnOpsTest, ConcatenationAndResidualAddsRunNoReferenceKernel) {
  const Function function = ParseMainFunction(R"(
def @main(%c: Tensor[(1, 1, 64), f32], %p: Tensor[(1, 196, 64), f32], %r: Tensor[(1, 197, 64), f32]) {
  %0 = concatenate(%c, %p, axis=1)
  %1 = add(%0, %r)
  add(%r, nn.relu(%1))
}
)");
  EXPECT_TRUE(MatchesReference(*backend_, function));
  EXPECT_EQ(ReferenceImplementations(function), std::vector<std::string>{});
}

// Blocks of the zoo that ran in oneDNN's reference kernels, 4-6x slower end to end: a blocked
// result times a per-channel operand (EfficientNet's squeeze-and-excitation scale computed at
// run time; DenseNet's batch norm after a concatenation, with constants), a sigmoid on 20
// channels whose blocks of 8 are padded, and a concatenation of a plain and a blocked input.
TEST_F(OnednnOpsTest, PerChannelScalesPaddedBlocksAndMixedConcatenationsRunOptimizedKernels) {
  const std::vector<Function> functions = {
      AfterConvolution("%p = nn.global_avg_pool2d(%c)\n  %s = sigmoid(%p)\n  multiply(%c, %s)"),
      AfterConvolution(R"(%m = constant(meta[1], Tensor[(1, 16, 1, 1), f32])
  %a = constant(meta[2], Tensor[(16, 1, 1), f32])
  %0 = multiply(%c, %m)
  add(%0, %a))",
                       "Tensor[(1, 8, 7, 9), f32]", {{1, 16, 1, 1}, {16, 1, 1}}),
      ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 8, 5, 5), f32]) {
  %w = constant(meta[0], Tensor[(20, 8, 1, 1), f32])
  %c = nn.conv2d(%x, %w)
  %p = nn.global_avg_pool2d(%c)
  sigmoid(%p)
}
)",
                                   {{20, 8, 1, 1}}),
      AfterConvolution("concatenate(%x, %c, axis=1)"),
  };
  for (const Function& function : functions) {
    EXPECT_TRUE(MatchesReference(*backend_, function)) << PrintFunction(function);
    EXPECT_EQ(ReferenceImplementations(function), std::vector<std::string>{}) << PrintFunction(function);
  }
}

// The negative control of the refusal: a blocked operand times a plain per-channel one is a
// binary primitive oneDNN runs only in its reference implementation.
TEST_F(OnednnOpsTest, StepsInAReferenceImplementationAreRefusedAsASlowPath) {
  using dnnl::memory;
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  const auto describe = [](memory::dims dims, memory::format_tag tag) {
    return memory::desc(dims, memory::data_type::f32, tag);
  };
  const memory::format_tag blocked = onednn::JitChannelBlockTag();
  const auto binary = [&](memory::format_tag scale_tag) {
    const memory::desc data = describe({1, 16, 5, 5}, blocked);
    return dnnl::binary(dnnl::binary::primitive_desc(
        {dnnl::algorithm::binary_mul, data, describe({1, 16, 1, 1}, scale_tag), data}, engine));
  };
  const std::vector<onednn::Step> steps = {{binary(blocked), {}},
                                           {binary(memory::format_tag::abcd), {}}};
  ASSERT_FALSE(onednn::IsReference(onednn::ImplementationName(steps[0].primitive)));
  ASSERT_TRUE(onednn::IsReference(onednn::ImplementationName(steps[1].primitive)));
  EXPECT_NO_THROW(onednn::RefuseReferenceImplementations({steps[0]}, 0, "multiply"));
  try {
    onednn::RefuseReferenceImplementations(steps, 0, "multiply on (1, 16, 5, 5), (1, 16, 1, 1)");
    FAIL() << "the reference binary was not refused";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "onednn: slow path: oneDNN runs the binary of multiply on (1, 16, 5, 5), (1, 16, 1, 1) only in its "
              "reference implementation (" + onednn::ImplementationName(steps[1].primitive) + "); refused");
  }
  EXPECT_NO_THROW(onednn::RefuseReferenceImplementations(steps, 2, "nothing"));
}

TEST_F(OnednnOpsTest, UnsupportedOpsDTypesAndAttributesAreErrors) {
  EXPECT_NE(CompileError("def @main(%x: Tensor[(2, 3), f32]) { erf(%x) }").find("onednn: op erf is not supported"),
            std::string::npos);
  EXPECT_NE(CompileError("def @main(%x: Tensor[(2, 3), i32]) { add(%x, %x) }").find("only f32 is supported"),
            std::string::npos);
  EXPECT_NE(CompileError("def @main(%x: Tensor[(2, 3), f32], %g: Tensor[(2), f32]) { nn.layer_norm(%x, %g, %g, axis=0) }")
                .find("onednn: nn.layer_norm over an axis other than the last"),
            std::string::npos);
  EXPECT_NE(CompileError("def @main(%a: Tensor[(3), f32], %b: Tensor[(2, 3), f32]) { subtract(%a, %b) }")
                .find("whose first operand is broadcast"),
            std::string::npos);
  EXPECT_NE(CompileError("def @main(%x: Tensor[(1, 1, 5, 5), f32]) { nn.adaptive_avg_pool2d(%x, output_size=[2, 2]) }")
                .find("only output sizes dividing the input"),
            std::string::npos);
  const SupportDeclaration support = backend_->Support();
  const Function erf = ParseMainFunction("def @main(%x: Tensor[(2, 3), f32]) { erf(%x) }");
  EXPECT_FALSE(support.supports_op(*As<CallNode>(erf->body)));
  const Function relu = ParseMainFunction("def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }");
  EXPECT_TRUE(support.supports_op(*As<CallNode>(relu->body)));
  // The support declaration refuses what the lowering cannot compile: a broadcast first
  // operand of a non-commutative op.
  auto supports = [&support](const std::string& body) {
    const Function function =
        ParseMainFunction("def @main(%a: Tensor[(3), f32], %b: Tensor[(2, 3), f32]) { " + body + " }");
    return support.supports_op(*As<CallNode>(function->body));
  };
  EXPECT_FALSE(supports("subtract(%a, %b)"));
  EXPECT_FALSE(supports("divide(%a, %b)"));
  EXPECT_TRUE(supports("divide(%b, %a)"));
  EXPECT_TRUE(supports("add(%a, %b)"));
}

}  // namespace
}  // namespace collage
