// The onednn backend's choice of Winograd's algorithm for large 3x3 stride-1 convolutions with
// constant weights (where oneDNN has a kernel for it on this CPU), direct convolutions for the
// others, and the Winograd results against the reference interpreter with the epilogues of a
// ResNet block fused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/flat_partition.h"
#include "backend/library_test_util.h"
#include "backend/onednn/implementation.h"
#include "backend/onednn/partition_lowering.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

// Whether oneDNN implements a Winograd convolution of 64 -> 64 channels on 28x28 on this CPU
// (in oneDNN 2.6: with AVX-512 only).
bool OnednnHasWinograd() {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  const auto f32 = dnnl::memory::data_type::f32;
  const auto any = dnnl::memory::format_tag::any;
  try {
    const dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_winograd,
        dnnl::memory::desc({1, 64, 28, 28}, f32, any), dnnl::memory::desc({64, 64, 3, 3}, f32, any),
        dnnl::memory::desc(), dnnl::memory::desc({1, 64, 28, 28}, f32, any), {1, 1}, {1, 1}, {1, 1});
    dnnl::convolution_forward::primitive_desc(desc, engine);
    return true;
  } catch (const dnnl::error&) {
    return false;
  }
}

// The implementation names of the convolutions `function` lowers to.
std::vector<std::string> ConvolutionImplementations(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  std::vector<std::string> names;
  for (const onednn::Step& step : program.steps) {
    if (step.primitive.get_kind() == dnnl::primitive::kind::convolution) {
      names.push_back(onednn::ImplementationName(step.primitive));
    }
  }
  return names;
}

bool IsWinograd(const std::string& implementation) { return implementation.find("wino") != std::string::npos; }

class OnednnWinogradTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  // One nn.conv2d of %x (`x_type`) with constant weights of `weights`, and its attributes.
  static Function Convolution(const std::string& x_type, const Shape& weights, const std::string& attributes) {
    return ParseMainWithRandomConstants("def @main(%x: " + x_type + ") {\n  %w = constant(meta[0], Tensor[" +
                                            ShapeToString(weights) + ", f32])\n  nn.conv2d(%x, %w" + attributes +
                                            ")\n}\n",
                                        {weights});
  }
  BackendPtr backend_;
};

TEST_F(OnednnWinogradTest, LargeThreeByThreeConvolutionsRunWinogradWhereOnednnHasIt) {
  const Function function = Convolution("Tensor[(1, 32, 28, 28), f32]", {64, 32, 3, 3}, ", padding=[1, 1, 1, 1]");
  const std::vector<std::string> names = ConvolutionImplementations(function);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(IsWinograd(names[0]), OnednnHasWinograd()) << names[0];
  EXPECT_TRUE(MatchesReference(*backend_, function));
}

TEST_F(OnednnWinogradTest, OtherConvolutionsRunDirect) {
  const std::vector<Function> direct = {
      // Too little work: 0.45 million multiply-adds.
      Convolution("Tensor[(1, 32, 7, 7), f32]", {32, 32, 3, 3}, ", padding=[1, 1, 1, 1]"),
      Convolution("Tensor[(1, 32, 28, 28), f32]", {64, 32, 3, 3}, ", strides=[2, 2], padding=[1, 1, 1, 1]"),
      Convolution("Tensor[(1, 32, 28, 28), f32]", {64, 32, 3, 3}, ", dilation=[2, 2], padding=[2, 2, 2, 2]"),
      Convolution("Tensor[(1, 32, 28, 28), f32]", {64, 16, 3, 3}, ", groups=2, padding=[1, 1, 1, 1]"),
      Convolution("Tensor[(1, 64, 28, 28), f32]", {64, 64, 1, 1}, ""),
      // Weights computed at run time.
      ParseMainFunction(R"(
def @main(%x: Tensor[(1, 32, 28, 28), f32], %w: Tensor[(64, 32, 3, 3), f32]) {
  nn.conv2d(%x, %w, padding=[1, 1, 1, 1])
}
)"),
  };
  for (const Function& function : direct) {
    for (const std::string& name : ConvolutionImplementations(function)) {
      EXPECT_FALSE(IsWinograd(name)) << name;
    }
  }
}

// A ResNet basic block: Winograd convolutions with the bias, the activation and the residual
// add (the sum post-op) fused, on inputs of either sign.
TEST_F(OnednnWinogradTest, WinogradWithFusedEpiloguesMatchesTheReference) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 64, 14, 14), f32]) {
  %w0 = constant(meta[0], Tensor[(64, 64, 3, 3), f32])
  %b0 = constant(meta[1], Tensor[(64), f32])
  %w1 = constant(meta[2], Tensor[(64, 64, 3, 3), f32])
  %b1 = constant(meta[3], Tensor[(64), f32])
  %0 = nn.relu(nn.bias_add(nn.conv2d(%x, %w0, padding=[1, 1, 1, 1]), %b0))
  %1 = nn.bias_add(nn.conv2d(%0, %w1, padding=[1, 1, 1, 1]), %b1)
  nn.relu(add(%1, %x))
}
)",
                                                         {{64, 64, 3, 3}, {64}, {64, 64, 3, 3}, {64}});
  const std::vector<std::string> names = ConvolutionImplementations(function);
  ASSERT_EQ(names.size(), 2u);
  for (const std::string& name : names) EXPECT_EQ(IsWinograd(name), OnednnHasWinograd()) << name;
  for (const uint64_t seed : {0, 1, 2}) EXPECT_TRUE(MatchesReference(*backend_, function, seed)) << seed;
}

}  // namespace
}  // namespace collage
