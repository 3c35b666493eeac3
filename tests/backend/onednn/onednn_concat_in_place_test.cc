// Channel concatenations that the onednn backend runs without copying (concat_in_place.h):
// which concatenations share a buffer, and DenseNet- and Inception-like partitions against the
// reference interpreter, with and without a concat primitive left in the program.
#include <gtest/gtest.h>

#include <algorithm>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/flat_partition.h"
#include "backend/library_test_util.h"
#include "backend/onednn/concat_in_place.h"
#include "backend/onednn/partition_lowering.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

int ConcatSteps(const Function& function) {
  const onednn::Program program =
      onednn::LowerPartition(FlattenPartition(function, "onednn"), dnnl::engine(dnnl::engine::kind::cpu, 0));
  return static_cast<int>(std::count_if(program.steps.begin(), program.steps.end(), [](const onednn::Step& step) {
    return step.primitive.get_kind() == dnnl::primitive::kind::concat;
  }));
}

// Three dense layers: each convolves the concatenation of the block's input and every earlier
// layer's features, `growth` channels each, as torchvision's DenseNet does.
Function DenseBlock(int64_t growth) {
  const std::string g = std::to_string(growth);
  const std::string c1 = std::to_string(16 + growth);
  const std::string c2 = std::to_string(16 + 2 * growth);
  const std::string c3 = std::to_string(16 + 3 * growth);
  return ParseMainWithRandomConstants(
      "def @main(%x: Tensor[(1, 16, 6, 6), f32]) {\n"
      "  %w1 = constant(meta[0], Tensor[(" + g + ", 16, 3, 3), f32])\n"
      "  %w2 = constant(meta[1], Tensor[(" + g + ", " + c1 + ", 3, 3), f32])\n"
      "  %w3 = constant(meta[2], Tensor[(" + g + ", " + c2 + ", 3, 3), f32])\n"
      "  %w4 = constant(meta[3], Tensor[(8, " + c3 + ", 1, 1), f32])\n"
      "  %n1 = nn.relu(nn.conv2d(%x, %w1, padding=[1, 1, 1, 1]))\n"
      "  %c1 = concatenate(%x, %n1, axis=1)\n"
      "  %n2 = nn.relu(nn.conv2d(%c1, %w2, padding=[1, 1, 1, 1]))\n"
      "  %c2 = concatenate(%x, %n1, %n2, axis=1)\n"
      "  %n3 = nn.relu(nn.conv2d(%c2, %w3, padding=[1, 1, 1, 1]))\n"
      "  %c3 = concatenate(%x, %n1, %n2, %n3, axis=1)\n"
      "  nn.conv2d(%c3, %w4)\n"
      "}\n",
      {{growth, 16, 3, 3}, {growth, 16 + growth, 3, 3}, {growth, 16 + 2 * growth, 3, 3}, {8, 16 + 3 * growth, 1, 1}});
}

class OnednnConcatInPlaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  }
  BackendPtr backend_;
};

TEST_F(OnednnConcatInPlaceTest, PrefixConcatenationsShareOneGroup) {
  const Function block = DenseBlock(16);  // the flat calls point into it
  const FlatPartition flat = FlattenPartition(block, "onednn");
  const onednn::ConcatPlan plan = onednn::PlanConcatsInPlace(flat);
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.groups[0].members.size(), 4u);
  EXPECT_EQ(plan.groups[0].channels, (std::vector<int64_t>{16, 16, 16, 16}));
  EXPECT_EQ(plan.groups[0].shape, (Shape{1, 64, 6, 6}));
  int concats = 0;
  for (size_t c = 0; c < flat.calls.size(); ++c) {
    if (flat.calls[c].op != "concatenate") continue;
    ++concats;
    EXPECT_EQ(plan.group_of_call[c], 0) << "call " << c;
  }
  EXPECT_EQ(concats, 3);
}

TEST_F(OnednnConcatInPlaceTest, ConcatenationsThatCannotShareABufferAreLeftToCopy) {
  const Function function = ParseMainFunction(R"(
def @main(%a: Tensor[(1, 8, 4, 4), f32], %b: Tensor[(1, 8, 4, 4), f32], %c: Tensor[(2, 8, 4, 4), f32]) {
  %0 = concatenate(%a, %b, axis=1)
  %1 = concatenate(%b, %a, axis=1)
  %2 = concatenate(%a, %a, axis=1)
  %3 = concatenate(%c, %c, axis=1)
  %4 = concatenate(%a, %b, axis=2)
  (%0, %1, %2, %3, %4)
}
)");
  const FlatPartition flat = FlattenPartition(function, "onednn");
  const onednn::ConcatPlan plan = onednn::PlanConcatsInPlace(flat);
  // The first concatenation founds a group; the reversed one shares its inputs without being a
  // prefix of it; the others repeat an input, have two images or concatenate rows.
  ASSERT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.groups[0].members, flat.calls[0].inputs);
  EXPECT_EQ(plan.group_of_call, (std::vector<int>{0, -1, -1, -1, -1}));
}

TEST_F(OnednnConcatInPlaceTest, DenseBlockConcatenatesWithoutCopying) {
  const Function block = DenseBlock(16);
  EXPECT_TRUE(MatchesReference(*backend_, block));
  EXPECT_EQ(ConcatSteps(block), 0);
}

// Features of 4 channels start off the 8- or 16-channel blocks the convolutions write, so the
// block's concatenations copy as before (and the step count shows it).
TEST_F(OnednnConcatInPlaceTest, SlicesOffBlockBoundariesAreCopied) {
  const Function block = DenseBlock(4);
  EXPECT_TRUE(MatchesReference(*backend_, block));
  EXPECT_GT(ConcatSteps(block), 0);
}

// Inception's block: branches of the input, the input itself among the concatenated values
// (copied into its slice), the concatenation and one branch both partition outputs.
TEST_F(OnednnConcatInPlaceTest, BranchesAndAParameterConcatenateIntoOneBuffer) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 16, 7, 7), f32]) {
  %w1 = constant(meta[0], Tensor[(16, 16, 1, 1), f32])
  %w2 = constant(meta[1], Tensor[(32, 16, 3, 3), f32])
  %b1 = nn.relu(nn.conv2d(%x, %w1))
  %b2 = nn.relu(nn.conv2d(%x, %w2, padding=[1, 1, 1, 1]))
  %b3 = nn.max_pool2d(%x, pool_size=[3, 3], padding=[1, 1, 1, 1])
  %c = concatenate(%b1, %b2, %x, %b3, axis=1)
  (%c, %b2)
}
)",
                                                         {{16, 16, 1, 1}, {32, 16, 3, 3}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
  EXPECT_EQ(ConcatSteps(function), 0);
}

TEST_F(OnednnConcatInPlaceTest, TwoImagesConcatenateWithThePrimitive) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 16, 5, 5), f32]) {
  %w = constant(meta[0], Tensor[(16, 16, 3, 3), f32])
  %n = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]))
  concatenate(%x, %n, axis=1)
}
)",
                                                         {{16, 16, 3, 3}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
  EXPECT_EQ(ConcatSteps(function), 1);
}

}  // namespace
}  // namespace collage
