// The xnnpack backend's host SiLU (host_silu.h): x * sigmoid(x) in either operand order as one
// host step with the sigmoid absorbed, folded into a depthwise convolution's sums when nothing
// else reads the convolution (host_depthwise.h), a sigmoid read elsewhere leaving the product a
// plain multiply; results against the reference interpreter in both layouts, and the loop
// against double-precision arithmetic.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "backend/backend_test_util.h"
#include "backend/boundary_layout.h"
#include "backend/xnnpack/host_silu.h"
#include "backend/xnnpack/host_vector_math.h"
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
using Kind = xnnpack::HostStep::Kind;

Expr Silu(const Expr& x, bool sigmoid_first) {
  const Expr sigmoid = CallOp("sigmoid", {x});
  return CallOp("multiply", sigmoid_first ? std::vector<Expr>{sigmoid, x} : std::vector<Expr>{x, sigmoid});
}

// A 1x1 convolution with bias of relu(x).
Expr Pointwise(const Var& x, int64_t channels) {
  const Conv2DParams params{channels, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  return CallOp("nn.bias_add", {Conv2D(CallOp("nn.relu", {x}), channels, params, 31), RandomConstant({channels}, 32)});
}

Expr Depthwise(const Expr& data, int64_t channels) {
  const Conv2DParams params{channels, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, channels};
  return CallOp("nn.bias_add", {Conv2D(data, channels, params, 33), RandomConstant({channels}, 34)});
}

void ExpectMatchesReferenceInBothLayouts(const Function& function, uint64_t seed, const std::string& name) {
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, seed)) << name;
  EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                               WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)),
                               seed + 1))
      << name << " channels-last";
}

TEST(XnnpackHostSiluTest, ASiluIsOneHostStepInEitherOrder) {
  if (!xnnpack::CpuHasAvx512()) GTEST_SKIP() << "the host SiLU needs AVX-512";
  for (const bool sigmoid_first : {false, true}) {
    Var x = MakeVar("x", F32({1, 17, 31, 33}));  // not a multiple of a vector
    const Function function = TypedFunction({x}, Silu(Pointwise(x, 17), sigmoid_first));
    const xnnpack::PartitionSteps plan = PlanStepsOf(function);
    ASSERT_EQ(plan.steps.size(), 2u);
    EXPECT_EQ(plan.steps[0].runtime.calls.size(), 2u);  // relu, convolution + bias; no sigmoid
    ASSERT_TRUE(plan.steps[1].is_host);
    EXPECT_EQ(plan.steps[1].host.kind, Kind::kSilu);
    EXPECT_EQ(plan.steps[1].host.silu.elements, 17 * 31 * 33);
    EXPECT_EQ(plan.steps[1].host.lhs.kind, xnnpack::BufferRef::Kind::kScratch);
    EXPECT_EQ(plan.steps[1].host.out.kind, xnnpack::BufferRef::Kind::kOutput);
    ExpectMatchesReferenceInBothLayouts(function, 40 + sigmoid_first * 2, sigmoid_first ? "sigmoid first" : "x first");
  }
}

TEST(XnnpackHostSiluTest, ASiluOfTheInputAlone) {
  if (!xnnpack::CpuHasAvx512()) GTEST_SKIP() << "the host SiLU needs AVX-512";
  Var x = MakeVar("x", F32({2, 16, 24, 24}));
  const Function function = TypedFunction({x}, Silu(x, false));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].host.kind, Kind::kSilu);
  EXPECT_EQ(plan.steps[0].host.lhs.kind, xnnpack::BufferRef::Kind::kInput);
  ExpectMatchesReferenceInBothLayouts(function, 44, "input");
}

TEST(XnnpackHostSiluTest, ASigmoidReadElsewhereLeavesAPlainProduct) {
  Var x = MakeVar("x", F32({1, 16, 32, 32}));
  const Expr convolved = Pointwise(x, 16);
  const Expr sigmoid = CallOp("sigmoid", {convolved});
  const Function function = TypedFunction({x}, CallOp("add", {CallOp("multiply", {convolved, sigmoid}), sigmoid}));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 3u);  // relu, convolution and sigmoid; the multiply; the add
  EXPECT_EQ(plan.steps[0].runtime.calls.size(), 3u);
  EXPECT_EQ(plan.steps[1].host.kind, Kind::kBinary);
  EXPECT_EQ(plan.steps[1].host.binary.op, xnnpack::HostBinaryOp::kMultiply);
  ExpectMatchesReferenceInBothLayouts(function, 46, "shared sigmoid");
}

TEST(XnnpackHostSiluTest, ADepthwiseConvolutionAppliesTheSiluReadByNothingElse) {
  if (!xnnpack::CpuHasAvx512()) GTEST_SKIP() << "the host SiLU needs AVX-512";
  Var x = MakeVar("x", F32({1, 40, 20, 21}));
  const Expr convolved = Depthwise(CallOp("nn.relu", {x}), 40);
  const Function fused = TypedFunction({x}, Silu(convolved, true));
  xnnpack::PartitionSteps plan = PlanStepsOf(fused);
  ASSERT_EQ(plan.steps.size(), 2u);  // relu; the convolution with its bias and SiLU
  EXPECT_EQ(plan.steps[1].host.kind, Kind::kDepthwise);
  EXPECT_TRUE(plan.steps[1].host.depthwise.silu);
  ExpectMatchesReferenceInBothLayouts(fused, 48, "depthwise + SiLU");

  // The convolution also feeds a residual sum: it is computed on its own, then its SiLU.
  const Function shared = TypedFunction({x}, CallOp("add", {Silu(convolved, false), convolved}));
  plan = PlanStepsOf(shared);
  ASSERT_EQ(plan.steps.size(), 4u);  // relu; the convolution; the SiLU; the add
  EXPECT_EQ(plan.steps[1].host.kind, Kind::kDepthwise);
  EXPECT_FALSE(plan.steps[1].host.depthwise.silu);
  EXPECT_EQ(plan.steps[2].host.kind, Kind::kSilu);
  EXPECT_EQ(plan.steps[3].host.kind, Kind::kBinary);
  ExpectMatchesReferenceInBothLayouts(shared, 50, "depthwise read twice");
}

TEST(XnnpackHostSiluTest, SmallSilusStayInXnnpack) {
  Var x = MakeVar("x", F32({1, 16, 16, 16}));  // 4096 elements
  const xnnpack::PartitionSteps plan = PlanStepsOf(TypedFunction({x}, Silu(Pointwise(x, 16), false)));
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_FALSE(plan.steps[0].is_host);
}

// Every element against x / (1 + e^-x) in double precision, from the tails where e^-|x|
// underflows to zero through zero, in place and not; a NaN stays NaN.
TEST(XnnpackHostSiluTest, TheLoopIsWithinAMillionthOfTheExactValue) {
  if (!xnnpack::CpuHasAvx512()) GTEST_SKIP() << "the host SiLU needs AVX-512";
  std::vector<float> in;
  for (float x = -120.0f; x <= 120.0f; x += 0.0371f) in.push_back(x);
  for (const float x : {0.0f, -0.0f, 1e-30f, -1e-30f, 88.7f, -88.7f}) in.push_back(x);
  in.push_back(std::numeric_limits<float>::quiet_NaN());
  const xnnpack::HostSilu silu{static_cast<int64_t>(in.size())};
  std::vector<float> out(in.size(), 0.0f), in_place = in;
  xnnpack::RunHostSilu(silu, in.data(), out.data(), 2);
  xnnpack::RunHostSilu(silu, in_place.data(), in_place.data(), 2);
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(std::isnan(out[i]), std::isnan(in[i])) << in[i];
    if (std::isnan(in[i])) continue;
    const double x = in[i];
    const double expected = x / (1.0 + std::exp(-x));
    const double bound = 1e-6 * std::abs(expected) + std::numeric_limits<float>::min();
    ASSERT_LE(std::abs(out[i] - expected), bound) << "silu(" << x << ")";
    ASSERT_EQ(in_place[i], out[i]) << x;
  }
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
