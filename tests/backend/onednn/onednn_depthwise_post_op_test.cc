// A 1x1 convolution followed by a 3x3 depthwise convolution, lowered as one oneDNN primitive
// with a depthwise post-op where oneDNN has a kernel for it, against the reference
// interpreter; pairs the fusion must not take (another reader of the expanded tensor, other
// padding) lower as two convolutions and still match.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/flat_partition.h"
#include "backend/library_test_util.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/partition_lowering.h"
#include "interpreter/interpreter.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainWithRandomConstants;

// An inverted-residual block's first half on a 112x112 plane, as mobilenet_v2's second block
// has it: expand 16 -> 96 channels with bias and relu6, then filter each channel with a stride.
std::string ExpandThenFilter(int stride, const std::string& filter_padding, const std::string& last_activation) {
  return R"(
def @main(%x: Tensor[(1, 16, 112, 112), f32]) {
  %w0 = constant(meta[0], Tensor[(96, 16, 1, 1), f32])
  %b0 = constant(meta[1], Tensor[(96), f32])
  %w1 = constant(meta[2], Tensor[(96, 1, 3, 3), f32])
  %b1 = constant(meta[3], Tensor[(96), f32])
  %0 = clip(nn.bias_add(nn.conv2d(%x, %w0), %b0), a_min=0.0, a_max=6.0)
  %1 = nn.bias_add(nn.conv2d(%0, %w1, groups=96, strides=[)" +
         std::to_string(stride) + ", " + std::to_string(stride) + "], padding=" + filter_padding + R"(), %b1)
  )" + last_activation + R"((%1)
}
)";
}

const std::vector<Shape> kConstants = {{96, 16, 1, 1}, {96}, {96, 1, 3, 3}, {96}};

// The implementation names of the partition's convolution steps, in order.
std::vector<std::string> ConvolutionStepsOf(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  std::vector<std::string> implementations;
  for (const onednn::Step& step : program.steps) {
    if (step.primitive.get_kind() == dnnl::primitive::kind::convolution) {
      implementations.push_back(onednn::ImplementationName(step.primitive));
    }
  }
  return implementations;
}

class OnednnDepthwisePostOpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  BackendPtr backend_;
};

TEST_F(OnednnDepthwisePostOpTest, ExpandThenFilterMatchesTheReferenceAsOnePrimitive) {
  for (int stride : {1, 2}) {
    for (const std::string activation : {"nn.relu", "sigmoid"}) {
      const Function function =
          ParseMainWithRandomConstants(ExpandThenFilter(stride, "[1, 1, 1, 1]", activation), kConstants);
      EXPECT_TRUE(MatchesReference(*backend_, function)) << "stride " << stride << ", " << activation;
      const std::vector<std::string> steps = ConvolutionStepsOf(function);
      // On AVX2, oneDNN 2.6 has the fused kernel for planes this large (measured).
      if (dnnl::get_effective_cpu_isa() == dnnl::cpu_isa::avx2) {
        EXPECT_EQ(steps.size(), 1u) << "stride " << stride;
      }
      for (const std::string& implementation : steps) {
        EXPECT_FALSE(onednn::IsReference(implementation)) << implementation;
      }
    }
  }
}

// The negative control: the fused primitive's result differs from a reference computing the
// block without the filter's activation, so the comparison above can fail.
TEST_F(OnednnDepthwisePostOpTest, ComparisonSeesAMissingActivation) {
  const Function fused = ParseMainWithRandomConstants(ExpandThenFilter(2, "[1, 1, 1, 1]", "nn.relu"), kConstants);
  const Function without = ParseMainWithRandomConstants(ExpandThenFilter(2, "[1, 1, 1, 1]", "negative"), kConstants);
  const std::vector<Value> args = RandomArguments(fused, 0);
  std::unique_ptr<Executable> executable = backend_->Compile(fused, {});
  const Value actual = InvokeExecutable(*executable, fused, args);
  EXPECT_TRUE(CompareValues(actual, Evaluate(fused, args)).ok());
  EXPECT_FALSE(CompareValues(actual, Evaluate(without, args)).ok());
}

// Pairs outside the fused kernel's contract: the expanded tensor read twice, a filter padded
// by zero (oneDNN's post-op always pads by one). Both lower as two convolutions.
TEST_F(OnednnDepthwisePostOpTest, PairsOutsideTheContractStayTwoConvolutions) {
  const Function unpadded = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 112, 112), f32]) {
  %w0 = constant(meta[0], Tensor[(96, 16, 1, 1), f32])
  %w1 = constant(meta[1], Tensor[(96, 1, 3, 3), f32])
  %0 = nn.relu(nn.conv2d(%x, %w0))
  nn.conv2d(%0, %w1, groups=96, strides=[2, 2])
}
)",
                                                         {{96, 16, 1, 1}, {96, 1, 3, 3}});
  const Function read_twice = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 112, 112), f32]) {
  %w0 = constant(meta[0], Tensor[(96, 16, 1, 1), f32])
  %w1 = constant(meta[1], Tensor[(96, 1, 3, 3), f32])
  %0 = nn.relu(nn.conv2d(%x, %w0))
  %1 = nn.conv2d(%0, %w1, groups=96, padding=[1, 1, 1, 1])
  add(%1, %0)
}
)",
                                                           {{96, 16, 1, 1}, {96, 1, 3, 3}});
  for (const Function* function : {&unpadded, &read_twice}) {
    EXPECT_TRUE(MatchesReference(*backend_, *function)) << (function == &unpadded ? "unpadded" : "read twice");
    EXPECT_EQ(ConvolutionStepsOf(*function).size(), 2u);
  }
}

}  // namespace
}  // namespace collage
