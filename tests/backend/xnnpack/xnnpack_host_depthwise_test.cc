// The xnnpack backend's host depthwise convolution (host_depthwise.h): which convolutions the
// executable computes itself, with their bias and a following relu or clip folded in, and with
// the expanding 1x1 convolution before them computed on the fly (partition_steps.h); the
// results against the reference interpreter and against a plain loop over every output, in
// the plain and channels-last layouts.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backend/backend_test_util.h"
#include "backend/boundary_layout.h"
#include "backend/xnnpack/host_depthwise.h"
#include "backend/xnnpack/partition_steps.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_test_graphs.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::xnnpack::Conv2D;
using testing::xnnpack::Conv2DParams;
using testing::xnnpack::RandomConstant;
using testing::xnnpack::F32;
using testing::xnnpack::PlanStepsOf;
using testing::xnnpack::TypedFunction;

bool HostDepthwiseAvailable() { return __builtin_cpu_supports("avx512f"); }

Conv2DParams Depthwise(int64_t channels, int64_t kernel, int64_t stride, std::vector<int64_t> padding) {
  return {channels, {kernel, kernel}, {stride, stride}, std::move(padding), {1, 1}, channels};
}

// relu(x) feeding the convolution, so that its input is computed inside the partition.
Expr DepthwiseOf(const Var& x, const Conv2DParams& params, bool bias) {
  const int64_t channels = params.out_channels;
  Expr convolved = Conv2D(CallOp("nn.relu", {x}), channels, params, 11);
  return bias ? CallOp("nn.bias_add", {convolved, RandomConstant({channels}, 12)}) : convolved;
}

TEST(XnnpackHostDepthwiseTest, ADepthwiseConvolutionWithItsBiasAndClipIsOneHostStep) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  Var x = MakeVar("x", F32({1, 32, 32, 32}));
  const Expr clipped =
      CallOp("clip", {DepthwiseOf(x, Depthwise(32, 3, 1, {1, 1, 1, 1}), true)}, {{"a_min", 0.0}, {"a_max", 6.0}});
  const xnnpack::PartitionSteps plan = PlanStepsOf(TypedFunction({x}, clipped));
  ASSERT_EQ(plan.steps.size(), 2u);
  EXPECT_FALSE(plan.steps[0].is_host);  // the relu
  ASSERT_TRUE(plan.steps[1].is_host);
  const xnnpack::HostStep& host = plan.steps[1].host;
  ASSERT_EQ(host.kind, xnnpack::HostStep::Kind::kDepthwise);
  EXPECT_EQ(host.depthwise.kernel, 3);
  EXPECT_EQ(host.depthwise.channels, 32);
  EXPECT_EQ(host.depthwise.output_min, 0.0f);
  EXPECT_EQ(host.depthwise.output_max, 6.0f);
  EXPECT_TRUE(std::any_of(host.depthwise.bias.begin(), host.depthwise.bias.end(), [](float b) { return b != 0.0f; }));
  EXPECT_EQ(host.out.kind, xnnpack::BufferRef::Kind::kOutput);
}

TEST(XnnpackHostDepthwiseTest, AClampOfAValueReadElsewhereStaysInXnnpack) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  Var x = MakeVar("x", F32({1, 32, 32, 32}));
  const Expr convolved = DepthwiseOf(x, Depthwise(32, 3, 1, {1, 1, 1, 1}), true);
  const Function function = TypedFunction({x}, CallOp("add", {CallOp("nn.relu", {convolved}), convolved}));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 4u);  // relu; the convolution; its relu; the add
  ASSERT_TRUE(plan.steps[1].is_host);
  EXPECT_EQ(plan.steps[1].host.depthwise.output_min, -std::numeric_limits<float>::infinity());
  EXPECT_FALSE(plan.steps[2].is_host);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, 3));
}

TEST(XnnpackHostDepthwiseTest, OtherConvolutionsStayInXnnpack) {
  Var x = MakeVar("x", F32({1, 32, 32, 32}));
  const Conv2DParams cases[] = {
      {32, {7, 7}, {1, 1}, {3, 3, 3, 3}, {1, 1}, 32},  // kernel
      {32, {3, 5}, {1, 1}, {1, 2, 1, 2}, {1, 1}, 32},  // not square
      {32, {3, 3}, {1, 2}, {1, 1, 1, 1}, {1, 1}, 32},  // strides differ
      {32, {3, 3}, {3, 3}, {1, 1, 1, 1}, {1, 1}, 32},  // stride 3
      {32, {3, 3}, {1, 1}, {2, 2, 2, 2}, {2, 2}, 32},  // dilated
      {64, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 32},  // two outputs per channel
      {32, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 16},  // two inputs per group
  };
  for (const Conv2DParams& params : cases) {
    const Function function = TypedFunction({x}, Conv2D(CallOp("nn.relu", {x}), 32, params, 4));
    EXPECT_EQ(PlanStepsOf(function).steps.size(), 1u) << params.out_channels << " " << params.kernel[1];
  }
  Var small = MakeVar("x", F32({1, 16, 16, 16}));  // 4096 elements
  const Function small_function = TypedFunction({small}, DepthwiseOf(small, Depthwise(16, 3, 1, {1, 1, 1, 1}), true));
  EXPECT_EQ(PlanStepsOf(small_function).steps.size(), 1u);
}

struct DepthwiseCase {
  Shape shape;
  int64_t kernel, stride;
  std::vector<int64_t> padding;
};

// Channels of whole vectors, with a partial last one, and fewer than one; rows whose interior
// is a multiple of the eight-pixel blocks, leaves a four-pixel block and single pixels, or is
// empty; symmetric, asymmetric and no padding.
const DepthwiseCase kCases[] = {
    {{1, 32, 32, 32}, 3, 1, {1, 1, 1, 1}},  {{2, 70, 12, 10}, 3, 1, {1, 1, 1, 1}},
    {{1, 8, 45, 47}, 3, 2, {1, 1, 1, 1}},   {{1, 48, 19, 23}, 5, 1, {2, 2, 2, 2}},
    {{2, 24, 30, 29}, 5, 2, {2, 2, 2, 2}},  {{1, 40, 21, 22}, 3, 2, {0, 1, 1, 0}},
    {{1, 17, 33, 31}, 5, 1, {0, 0, 0, 0}},  {{1, 1024, 4, 4}, 5, 1, {2, 2, 2, 2}},
};

TEST(XnnpackHostDepthwiseTest, DepthwiseConvolutionsMatchTheReferenceInBothLayouts) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  uint64_t seed = 20;
  for (const DepthwiseCase& c : kCases) {
    for (const bool bias : {false, true}) {
      Var x = MakeVar("x", F32(c.shape));
      const Expr convolved = DepthwiseOf(x, Depthwise(c.shape[1], c.kernel, c.stride, c.padding), bias);
      const Expr body = bias ? CallOp("nn.relu", {convolved}) : convolved;
      const Function function = TypedFunction({x}, body);
      const xnnpack::PartitionSteps plan = PlanStepsOf(function);
      const std::string name = ShapeToString(c.shape) + " k" + std::to_string(c.kernel) + " s" +
                               std::to_string(c.stride) + (bias ? " bias relu" : "");
      ASSERT_EQ(plan.steps.size(), 2u) << name;
      ASSERT_EQ(plan.steps[1].host.kind, xnnpack::HostStep::Kind::kDepthwise) << name;
      EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, ++seed)) << name;
      EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                                   WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)),
                                   ++seed))
          << name << " channels-last";
    }
  }
}

// Every output of the loop against a sum over the taps inside the input, on a row narrower
// than the kernel (no interior), with bounds.
TEST(XnnpackHostDepthwiseTest, TheLoopSumsEveryTapInsideTheInput) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  for (const int stride : {1, 2}) {
    xnnpack::HostDepthwise dw;
    dw.samples = 2;
    dw.channels = 20;
    dw.in_height = 6;
    dw.in_width = 3;
    dw.kernel = 5;
    dw.stride = stride;
    dw.pad_top = 2;
    dw.pad_left = 2;
    dw.out_height = (dw.in_height + 4 - 5) / stride + 1;
    dw.out_width = (dw.in_width + 4 - 5) / stride + 1;
    dw.output_min = -1.5f;
    dw.output_max = 2.0f;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> in(dw.samples * dw.in_height * dw.in_width * dw.channels);
    for (float& v : in) v = uniform(random);
    dw.weights.resize(25 * dw.channels);
    for (float& v : dw.weights) v = uniform(random);
    dw.bias.resize(dw.channels);
    for (float& v : dw.bias) v = uniform(random);
    std::vector<float> out(dw.samples * dw.out_height * dw.out_width * dw.channels, std::nanf(""));
    xnnpack::RunHostDepthwise(dw, in.data(), out.data(), 2);
    size_t clamped = 0;
    for (int64_t s = 0; s < dw.samples; ++s) {
      for (int64_t y = 0; y < dw.out_height; ++y) {
        for (int64_t x = 0; x < dw.out_width; ++x) {
          for (int64_t c = 0; c < dw.channels; ++c) {
            double sum = dw.bias[c], scale = std::abs(dw.bias[c]);  // scale: the sum of the terms' magnitudes
            for (int64_t ky = 0; ky < 5; ++ky) {
              for (int64_t kx = 0; kx < 5; ++kx) {
                const int64_t iy = y * stride - 2 + ky, ix = x * stride - 2 + kx;
                if (iy < 0 || ix < 0 || iy >= dw.in_height || ix >= dw.in_width) continue;
                const double term = in[((s * dw.in_height + iy) * dw.in_width + ix) * dw.channels + c] *
                                    dw.weights[(ky * 5 + kx) * dw.channels + c];
                sum += term;
                scale += std::abs(term);
              }
            }
            const double expected = std::clamp(sum, -1.5, 2.0);
            clamped += expected != sum;
            const float actual = out[((s * dw.out_height + y) * dw.out_width + x) * dw.channels + c];
            ASSERT_NEAR(actual, expected, 1e-6 * scale)
                << "stride " << stride << " at " << s << "," << y << "," << x << "," << c;
          }
        }
      }
    }
    EXPECT_GT(clamped, 0u) << "stride " << stride;
  }
}

// relu(x), a 1x1 convolution to `channels` with bias, `activation` ("clip", "silu" or none),
// and a depthwise convolution with bias and a clip: the first half of an inverted residual
// block.
Expr InvertedResidualHalf(const Var& x, int64_t channels, const std::string& activation,
                          const Conv2DParams& depthwise) {
  const int64_t in_channels = AsTensorType(x->type_annotation)->shape[1];
  const Conv2DParams pointwise{channels, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  Expr expanded = CallOp("nn.bias_add", {Conv2D(CallOp("nn.relu", {x}), in_channels, pointwise, 13),
                                         RandomConstant({channels}, 14)});
  if (activation == "clip") expanded = CallOp("clip", {expanded}, {{"a_min", 0.0}, {"a_max", 6.0}});
  if (activation == "silu") expanded = CallOp("multiply", {expanded, CallOp("sigmoid", {expanded})});
  const Expr convolved =
      CallOp("nn.bias_add", {Conv2D(expanded, channels, depthwise, 15), RandomConstant({channels}, 16)});
  return CallOp("clip", {convolved}, {{"a_min", 0.0}, {"a_max", 6.0}});
}

TEST(XnnpackHostDepthwiseTest, AnExpansionReadOnlyByTheDepthwiseConvolutionIsComputedOnTheFly) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  Var x = MakeVar("x", F32({1, 16, 32, 32}));
  const Function function = TypedFunction({x}, InvertedResidualHalf(x, 48, "clip", Depthwise(48, 3, 2, {1, 1, 1, 1})));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 2u);  // the relu; expansion, clip, depthwise convolution and clip
  EXPECT_EQ(plan.steps[0].runtime.calls.size(), 1u);
  ASSERT_EQ(plan.steps[1].host.kind, xnnpack::HostStep::Kind::kExpandedDepthwise);
  const xnnpack::HostExpandedDepthwise& expanded = plan.steps[1].host.expanded;
  EXPECT_EQ(expanded.in_channels, 16);
  EXPECT_EQ(expanded.depthwise.channels, 48);
  EXPECT_EQ(expanded.expand_max, 6.0f);
  EXPECT_EQ(expanded.depthwise.output_max, 6.0f);
  EXPECT_FALSE(expanded.expand_silu);
  EXPECT_EQ(plan.steps[1].host.lhs.kind, xnnpack::BufferRef::Kind::kScratch);  // the relu's result
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, 60));
}

TEST(XnnpackHostDepthwiseTest, ExpandedDepthwiseConvolutionsMatchTheReferenceInBothLayouts) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  struct Case {
    Shape shape;
    int64_t channels;
    std::string activation;
    Conv2DParams depthwise;
  };
  // Channels of whole vectors and not, more than one group of 128, two samples, a row width
  // that is no multiple of eight, strides 1 and 2, 3x3 and 5x5, asymmetric padding, SiLU and
  // no activation between the convolutions.
  const Case cases[] = {
      {{1, 16, 32, 32}, 48, "clip", Depthwise(48, 3, 1, {1, 1, 1, 1})},
      {{2, 8, 29, 31}, 40, "silu", Depthwise(40, 5, 2, {2, 2, 2, 2})},
      {{1, 24, 28, 37}, 144, "silu", Depthwise(144, 5, 1, {2, 2, 2, 2})},
      {{1, 12, 30, 28}, 20, "", Depthwise(20, 3, 2, {0, 1, 1, 0})},
  };
  uint64_t seed = 70;
  for (const Case& c : cases) {
    Var x = MakeVar("x", F32(c.shape));
    const Function function = TypedFunction({x}, InvertedResidualHalf(x, c.channels, c.activation, c.depthwise));
    const std::string name = ShapeToString(c.shape) + " -> " + std::to_string(c.channels) + " " + c.activation;
    const xnnpack::PartitionSteps plan = PlanStepsOf(function);
    ASSERT_EQ(plan.steps.size(), 2u) << name;
    EXPECT_EQ(plan.steps[1].host.kind, xnnpack::HostStep::Kind::kExpandedDepthwise) << name;
    EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, ++seed)) << name;
    EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                                 WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)),
                                 ++seed))
        << name << " channels-last";
  }
}

TEST(XnnpackHostDepthwiseTest, ExpansionsReadElsewhereSmallOrWideStayApart) {
  if (!HostDepthwiseAvailable()) GTEST_SKIP() << "the host depthwise convolution needs AVX-512";
  const auto kinds = [](const Function& function) {
    std::vector<xnnpack::HostStep::Kind> found;
    for (const xnnpack::PartitionStep& step : PlanStepsOf(function).steps) {
      if (step.is_host) found.push_back(step.host.kind);
    }
    return found;
  };
  using Kind = xnnpack::HostStep::Kind;
  // Fewer than 28 expanded rows.
  Var small = MakeVar("x", F32({1, 16, 20, 40}));
  EXPECT_EQ(kinds(TypedFunction({small}, InvertedResidualHalf(small, 48, "clip", Depthwise(48, 3, 1, {1, 1, 1, 1})))),
            std::vector<Kind>{Kind::kDepthwise});
  // More than 64 input channels.
  Var wide = MakeVar("x", F32({1, 80, 28, 28}));
  EXPECT_EQ(kinds(TypedFunction({wide}, InvertedResidualHalf(wide, 96, "clip", Depthwise(96, 3, 1, {1, 1, 1, 1})))),
            std::vector<Kind>{Kind::kDepthwise});
  // The expansion is also a result of the partition.
  Var x = MakeVar("x", F32({1, 16, 32, 32}));
  const Conv2DParams pointwise{48, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  const Expr expanded =
      CallOp("clip", {Conv2D(CallOp("nn.relu", {x}), 16, pointwise, 17)}, {{"a_min", 0.0}, {"a_max", 6.0}});
  const Expr convolved = Conv2D(expanded, 48, Depthwise(48, 3, 1, {1, 1, 1, 1}), 18);
  const Function shared = TypedFunction({x}, MakeTuple({convolved, expanded}));
  EXPECT_EQ(kinds(shared), std::vector<Kind>{Kind::kDepthwise});
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), shared, 80));
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
