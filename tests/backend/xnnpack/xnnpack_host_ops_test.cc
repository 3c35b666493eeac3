// The xnnpack backend's host ops: large same-shape adds, subtracts and multiplies, multiplies by
// a per-channel gate and global average pooling split the partition into XNNPACK runtimes with
// the executable's own loops between them (host_binary_ops.h, host_pooling.h,
// partition_steps.h). Checked: the step plan (which calls run where, which
// values pass through scratch buffers and when a buffer is reused), the loop on its own, and
// whole partitions against the reference interpreter in the plain and channels-last layouts.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "backend/backend_test_util.h"
#include "backend/boundary_layout.h"
#include "backend/xnnpack/host_binary_ops.h"
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

// conv 1x1 + bias, x * sigmoid(relu(x)), conv 1x1, and the residual sum of both products'
// results: on [1, channels, 32, 32] the multiply and the add have 1024 x channels elements. (Not
// a SiLU, x * sigmoid(x), which host_silu.h computes in one loop.)
struct GatedBlock {
  Var x;
  Expr multiply;  // x * sigmoid(relu(x)) of the first convolution
  Expr sum;       // second convolution + multiply
};

GatedBlock MakeGatedBlock(int64_t channels) {
  GatedBlock block{MakeVar("x", F32({1, channels, 32, 32})), {}, {}};
  const Conv2DParams pointwise{channels, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  Expr convolved = CallOp("nn.bias_add", {Conv2D(block.x, channels, pointwise, 1), RandomConstant({channels}, 2)});
  block.multiply = CallOp("multiply", {convolved, CallOp("sigmoid", {CallOp("nn.relu", {convolved})})});
  block.sum = CallOp("add", {Conv2D(block.multiply, channels, pointwise, 3), block.multiply});
  return block;
}

bool IsScratch(const xnnpack::BufferRef& buffer) { return buffer.kind == xnnpack::BufferRef::Kind::kScratch; }

TEST(XnnpackHostOpsTest, LargeSameShapeProductsAndSumsRunBetweenRuntimes) {
  const GatedBlock block = MakeGatedBlock(16);
  const Function function = TypedFunction({block.x}, block.sum);
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 4u);
  // conv + bias, relu and sigmoid; the multiply; the second convolution; the add.
  EXPECT_FALSE(plan.steps[0].is_host);
  EXPECT_EQ(plan.steps[0].runtime.calls.size(), 3u);
  EXPECT_TRUE(plan.steps[1].is_host);
  EXPECT_EQ(plan.steps[1].host.binary.op, xnnpack::HostBinaryOp::kMultiply);
  EXPECT_FALSE(plan.steps[2].is_host);
  EXPECT_TRUE(plan.steps[3].is_host);
  EXPECT_EQ(plan.steps[3].host.binary.op, xnnpack::HostBinaryOp::kAdd);
  EXPECT_EQ(plan.steps[3].host.binary.elements, 16 * 32 * 32);

  // The first runtime hands the convolution and its sigmoid to the multiply in scratch buffers.
  ASSERT_EQ(plan.steps[0].runtime.outputs.size(), 2u);
  EXPECT_TRUE(IsScratch(plan.steps[1].host.lhs));
  EXPECT_TRUE(IsScratch(plan.steps[1].host.rhs));
  EXPECT_NE(plan.steps[1].host.lhs.index, plan.steps[1].host.rhs.index);
  // The product is read by the second runtime and by the add: a buffer of its own.
  const xnnpack::BufferRef product = plan.steps[1].host.out;
  ASSERT_TRUE(IsScratch(product));
  EXPECT_NE(product.index, plan.steps[1].host.lhs.index);
  EXPECT_NE(product.index, plan.steps[1].host.rhs.index);
  ASSERT_EQ(plan.steps[2].runtime.inputs.size(), 1u);
  EXPECT_EQ(plan.steps[2].runtime.inputs[0].second.index, product.index);
  // The second convolution reuses a buffer the multiply has finished reading.
  ASSERT_EQ(plan.steps[2].runtime.outputs.size(), 1u);
  const xnnpack::BufferRef convolved = plan.steps[2].runtime.outputs[0].second;
  ASSERT_TRUE(IsScratch(convolved));
  EXPECT_TRUE(convolved.index == plan.steps[1].host.lhs.index || convolved.index == plan.steps[1].host.rhs.index);
  EXPECT_EQ(plan.scratch_elements.size(), 3u);
  // The sum is the partition's output, written in place.
  EXPECT_EQ(plan.steps[3].host.out.kind, xnnpack::BufferRef::Kind::kOutput);
  EXPECT_EQ(plan.outputs[0].buffer.kind, xnnpack::BufferRef::Kind::kOutput);
}

TEST(XnnpackHostOpsTest, SmallProductsAndConstantOperandsStayInTheRuntime) {
  const GatedBlock small = MakeGatedBlock(2);  // 2048 elements
  EXPECT_EQ(PlanStepsOf(TypedFunction({small.x}, small.sum)).steps.size(), 1u);
  Var x = MakeVar("x", F32({1, 16, 32, 32}));
  const Function scaled = TypedFunction({x}, CallOp("multiply", {CallOp("nn.relu", {x}), RandomConstant({1, 16, 32, 32}, 5)}));
  EXPECT_EQ(PlanStepsOf(scaled).steps.size(), 1u);
}

TEST(XnnpackHostOpsTest, GatedBlockMatchesTheReferenceInBothLayouts) {
  const GatedBlock block = MakeGatedBlock(16);
  const Function function = TypedFunction({block.x}, block.sum);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
  const Function channels_last = WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), channels_last, 1));
}

TEST(XnnpackHostOpsTest, AHostResultReadLaterIsCopiedOutOfItsScratchBuffer) {
  const GatedBlock block = MakeGatedBlock(16);
  const Function function = TypedFunction({block.x}, MakeTuple({block.multiply, block.sum}));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.outputs.size(), 2u);
  EXPECT_TRUE(IsScratch(plan.outputs[0].buffer));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                               WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)), 2));
}

TEST(XnnpackHostOpsTest, AHostOpOnThePartitionsInputsAlone) {
  Var a = MakeVar("a", F32({1, 8, 48, 48}));
  Var b = MakeVar("b", F32({1, 8, 48, 48}));
  const Function function = TypedFunction({a, b}, CallOp("subtract", {a, b}));
  const xnnpack::PartitionSteps plan = PlanStepsOf(function);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_TRUE(plan.steps[0].is_host);
  EXPECT_EQ(plan.steps[0].host.lhs.kind, xnnpack::BufferRef::Kind::kInput);
  EXPECT_EQ(plan.steps[0].host.rhs.index, 1u);
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                               WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)), 3));
}

// relu(x) multiplied by the squeeze-and-excitation-like gate sigmoid(mean over its pixels), the
// gate on the left or the right; per sample, or one for all samples.
Function GatedFunction(int64_t samples, bool gate_first, bool shared_gate) {
  Var x = MakeVar("x", F32({samples, 16, 32, 32}));
  Expr activated = CallOp("nn.relu", {x});
  Expr gate = CallOp("sigmoid", {CallOp("nn.global_avg_pool2d", {activated})});
  Var shared = MakeVar("gate", F32({1, 16, 1, 1}));
  const Expr& used_gate = shared_gate ? Expr(CallOp("sigmoid", {shared})) : gate;
  Expr product = gate_first ? CallOp("multiply", {used_gate, activated}) : CallOp("multiply", {activated, used_gate});
  return shared_gate ? TypedFunction({x, shared}, product) : TypedFunction({x}, product);
}

TEST(XnnpackHostOpsTest, GateMultipliesRunOnTheHostAndMatchTheReference) {
  for (const bool gate_first : {false, true}) {
    for (const auto& [samples, shared_gate] : {std::pair<int64_t, bool>{1, false}, {2, false}, {3, true}}) {
      const Function function = GatedFunction(samples, gate_first, shared_gate);
      const xnnpack::PartitionSteps plan = PlanStepsOf(function);
      // relu; the pooling on the host (a shared gate has none); the sigmoid; the gate multiply.
      ASSERT_EQ(plan.steps.size(), shared_gate ? 2u : 4u) << samples << (gate_first ? " gate first" : "");
      ASSERT_TRUE(plan.steps.back().is_host);
      const xnnpack::HostBinary& binary = plan.steps.back().host.binary;
      EXPECT_EQ(binary.channels, 16);
      EXPECT_EQ(binary.pixels, 32 * 32);
      EXPECT_EQ(binary.gate_per_sample, samples > 1 && !shared_gate);
      EXPECT_EQ(binary.gate_first, gate_first);
      EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, 4)) << samples << (gate_first ? " gate first" : "");
      EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                                   WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)), 5))
          << samples << (gate_first ? " gate first" : "") << " channels-last";
    }
  }
}

TEST(XnnpackHostOpsTest, GatesOverOnePixelOrAlongOtherAxesStayInTheRuntime) {
  Var wide = MakeVar("x", F32({1, 20000, 1, 1}));
  Var gate = MakeVar("g", F32({1, 20000, 1, 1}));
  // Same shape over one pixel: the same-shape loop, not a gate.
  const xnnpack::PartitionSteps same = PlanStepsOf(TypedFunction({wide, gate}, CallOp("multiply", {wide, gate})));
  ASSERT_EQ(same.steps.size(), 1u);
  EXPECT_EQ(same.steps[0].host.binary.channels, 0);
  Var x = MakeVar("x", F32({1, 16, 32, 32}));
  Var row = MakeVar("r", F32({1, 1, 1, 32}));
  EXPECT_FALSE(PlanStepsOf(TypedFunction({x, row}, CallOp("multiply", {CallOp("nn.relu", {x}), row}))).steps[0].is_host);
}

// A random DAG over [1, 16, 32, 32] values: host-sized sums, differences and products of any
// two earlier values (parameters included), gates, activations and 1x1 convolutions, returning
// the last value and two earlier ones; so values cross several steps, some steps read only
// parameters, and results are read by later steps.
Function RandomHostDag(uint64_t seed) {
  std::mt19937_64 random(seed);
  const auto pick = [&](size_t count) { return static_cast<size_t>(random() % count); };
  Var a = MakeVar("a", F32({1, 16, 32, 32}));
  Var b = MakeVar("b", F32({1, 16, 32, 32}));
  std::vector<Expr> values = {a, b};
  const char* binary_ops[] = {"add", "subtract", "multiply"};
  const Conv2DParams pointwise{16, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1};
  for (int step = 0; step < 12; ++step) {
    const Expr& x = values[pick(values.size())];
    const Expr& y = values[pick(values.size())];
    switch (pick(5)) {
      case 0:
      case 1:
        values.push_back(CallOp(binary_ops[pick(3)], {x, y}));
        break;
      case 2:
        values.push_back(CallOp("multiply", {x, CallOp("sigmoid", {CallOp("nn.global_avg_pool2d", {y})})}));
        break;
      case 3:
        values.push_back(CallOp(pick(2) == 0 ? "sigmoid" : "nn.relu", {x}));
        break;
      default:
        values.push_back(CallOp("nn.bias_add", {Conv2D(x, 16, pointwise, seed * 100 + step),
                                                RandomConstant({16}, seed * 100 + step + 50)}));
        break;
    }
  }
  return TypedFunction({a, b}, MakeTuple({values.back(), values[2 + pick(values.size() - 2)], values[pick(values.size())]}));
}

TEST(XnnpackHostOpsTest, RandomDagsWithHostOpsMatchTheReference) {
  size_t plans_with_several_host_steps = 0;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    const Function function = RandomHostDag(seed);
    const xnnpack::PartitionSteps plan = PlanStepsOf(function);
    size_t host_steps = 0;
    for (const xnnpack::PartitionStep& step : plan.steps) host_steps += step.is_host;
    plans_with_several_host_steps += host_steps >= 2 && host_steps < plan.steps.size();
    EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, seed)) << "seed " << seed;
    EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                                 WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)), seed))
        << "seed " << seed << " channels-last";
  }
  EXPECT_GE(plans_with_several_host_steps, 8u);
}

TEST(XnnpackHostOpsTest, GlobalAveragePoolingRunsOnTheHostAndMatchesTheReference) {
  // Channels a multiple of the loop's vectors, few (split in two for two threads), and neither.
  for (const Shape& shape : {Shape{2, 64, 16, 16}, Shape{1, 32, 32, 32}, Shape{1, 70, 15, 17}}) {
    Var x = MakeVar("x", F32(shape));
    const Function function = TypedFunction({x}, CallOp("nn.global_avg_pool2d", {CallOp("nn.relu", {x})}));
    const xnnpack::PartitionSteps plan = PlanStepsOf(function);
    ASSERT_EQ(plan.steps.size(), 2u) << ShapeToString(shape);
    ASSERT_TRUE(plan.steps[1].is_host);
    EXPECT_EQ(plan.steps[1].host.kind, xnnpack::HostStep::Kind::kGlobalAveragePool);
    EXPECT_EQ(plan.steps[1].host.pool.channels, shape[1]);
    EXPECT_EQ(plan.steps[1].host.pool.pixels, shape[2] * shape[3]);
    EXPECT_TRUE(MatchesReference(XnnpackBackend(), function, 6)) << ShapeToString(shape);
    EXPECT_TRUE(MatchesReference(XnnpackBackend(),
                                 WithBoundaryLayouts(function, PartitionLayouts::Uniform(Layout::kChannelsLast)), 7))
        << ShapeToString(shape) << " channels-last";
  }
  Var small = MakeVar("x", F32({1, 16, 16, 16}));
  EXPECT_EQ(PlanStepsOf(TypedFunction({small}, CallOp("nn.global_avg_pool2d", {CallOp("nn.relu", {small})}))).steps.size(), 1u);
}

TEST(XnnpackHostOpsTest, TheLoopCoversEveryElementInPlaceOrNot) {
  // Not a multiple of the loop's 4096-element items, nor of a vector.
  const int64_t elements = 3 * 4096 + 37;
  std::vector<float> lhs(elements), rhs(elements);
  for (int64_t i = 0; i < elements; ++i) {
    lhs[i] = 0.5f + static_cast<float>(i % 97);
    rhs[i] = 2.0f - static_cast<float>(i % 13);
  }
  const struct {
    xnnpack::HostBinaryOp op;
    float (*expected)(float, float);
  } cases[] = {{xnnpack::HostBinaryOp::kAdd, [](float a, float b) { return a + b; }},
               {xnnpack::HostBinaryOp::kSubtract, [](float a, float b) { return a - b; }},
               {xnnpack::HostBinaryOp::kMultiply, [](float a, float b) { return a * b; }}};
  for (const auto& c : cases) {
    xnnpack::HostBinary binary;
    binary.op = c.op;
    binary.elements = elements;
    std::vector<float> out(elements, std::nanf(""));
    xnnpack::RunHostBinary(binary, lhs.data(), rhs.data(), out.data(), 2);
    std::vector<float> in_place = lhs;
    xnnpack::RunHostBinary(binary, in_place.data(), rhs.data(), in_place.data(), 2);
    for (int64_t i = 0; i < elements; ++i) {
      ASSERT_EQ(out[i], c.expected(lhs[i], rhs[i])) << static_cast<int>(c.op) << " at " << i;
      ASSERT_EQ(in_place[i], out[i]) << static_cast<int>(c.op) << " in place at " << i;
    }
  }
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
