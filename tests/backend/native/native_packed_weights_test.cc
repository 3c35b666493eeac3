// Constant weights of dense and matmul packed when the native kernel is generated: the kernel
// reads the packed panels (MatmulPackedWeights) and its outputs match the reference
// interpreter on ragged shapes (a last panel of a few columns, a depth with a tail past the
// 256-row block and past the 8 x 8 transposes, batches sharing one weight matrix, a fused
// bias and GELU, weights that an element-wise op reads as well), the few-row dense keeps its
// dot products on the unpacked weights, and the comparison fails when one weight element
// differs (the negative control).
#include <gtest/gtest.h>

#include "backend/library_test_util.h"
#include "backend/native/execution_planner.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "backend/native/packed_weights.h"
#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

struct PackedCase {
  std::string name;
  std::string text;
  std::vector<Shape> meta_shapes;
  bool packs;  // whether the kernel reads packed weights
};

void PrintTo(const PackedCase& c, std::ostream* os) { *os << c.name; }

std::vector<PackedCase> Cases() {
  return {
      {"dense_ragged_panel_and_depth_tail",
       "def @main(%x: Tensor[(13, 263), f32]) {\n  %w = constant(meta[0], Tensor[(17, 263), f32])\n"
       "  %b = constant(meta[1], Tensor[(17), f32])\n  add(nn.dense(%x, %w), %b)\n}\n",
       {{17, 263}, {17}},
       true},
      {"dense_3d_bias_gelu",
       "def @main(%x: Tensor[(2, 9, 300), f32]) {\n  %w = constant(meta[0], Tensor[(40, 300), f32])\n"
       "  %b = constant(meta[1], Tensor[(40), f32])\n  nn.gelu(add(nn.dense(%x, %w), %b))\n}\n",
       {{40, 300}, {40}},
       true},
      {"matmul_row_major_weights",
       "def @main(%x: Tensor[(1, 11, 70), f32]) {\n  %w = constant(meta[0], Tensor[(70, 33), f32])\n"
       "  nn.matmul(%x, %w)\n}\n",
       {{70, 33}},
       true},
      {"matmul_batches_share_weights",
       "def @main(%x: Tensor[(3, 7, 20), f32]) {\n  %w = constant(meta[0], Tensor[(1, 20, 16), f32])\n"
       "  nn.matmul(%x, %w)\n}\n",
       {{1, 20, 16}},
       true},
      {"dense_weights_also_read_elementwise",
       "def @main(%x: Tensor[(16, 16), f32]) {\n  %w = constant(meta[0], Tensor[(16, 16), f32])\n"
       "  add(nn.dense(%x, %w), %w)\n}\n",
       {{16, 16}},
       true},
      {"dense_few_rows_unpacked",
       "def @main(%x: Tensor[(2, 45), f32]) {\n  %w = constant(meta[0], Tensor[(37, 45), f32])\n"
       "  nn.dense(%x, %w)\n}\n",
       {{37, 45}},
       false},
  };
}

class NativePackedWeightsTest : public ::testing::TestWithParam<PackedCase> {};

TEST_P(NativePackedWeightsTest, MatchesReference) {
  const PackedCase& c = GetParam();
  const Function function = testing::ParseMainWithRandomConstants(c.text, c.meta_shapes);
  const std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
  EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 1));
  EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 2));
  const std::unique_ptr<Executable> one_thread = NativeBackend().Compile(function, testing::NativeTestOptions(1));
  EXPECT_TRUE(testing::ExecutableMatchesReference(*one_thread, function, 3));
}

TEST_P(NativePackedWeightsTest, KernelReadsPackedWeightsWhereTheGemmRuns) {
  const PackedCase& c = GetParam();
  const Function function = testing::ParseMainWithRandomConstants(c.text, c.meta_shapes);
  const native::PlannedFunction planned = native::PlanFunction(function);
  ASSERT_EQ(planned.kernels.size(), 1u);
  const native::GeneratedKernel& kernel = planned.kernels[0];
  EXPECT_EQ(kernel.source.find("MatmulPackedWeights") != std::string::npos, c.packs) << kernel.source;
  const Shape& weights = c.meta_shapes[0];
  const bool dense = c.text.find("nn.dense") != std::string::npos;
  const int64_t depth = dense ? weights[1] : weights[weights.size() - 2];
  const int64_t columns = dense ? weights[0] : weights.back();
  bool has_packed = false;
  for (const Constant& constant : kernel.constants) {
    has_packed = has_packed || constant->data.shape() == Shape{native::PackedWeightsElements(depth, columns)};
  }
  EXPECT_EQ(has_packed, c.packs);
}

INSTANTIATE_TEST_SUITE_P(Products, NativePackedWeightsTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<PackedCase>& info) { return info.param.name; });

// The comparison can fail: the packed kernel's output differs from the reference of the same
// function with one weight element (in the depth tail, past the first block) changed by 0.05.
TEST(NativePackedWeightsOracleTest, DetectsOneChangedWeight) {
  const PackedCase c = Cases()[0];
  std::vector<Tensor> meta;
  for (size_t k = 0; k < c.meta_shapes.size(); ++k) meta.push_back(Tensor::Random(DType::kF32, c.meta_shapes[k], 7 + k));
  const Function function = ParseModule(c.text, "test", meta).main();
  const std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
  const std::vector<Value> args = RandomArguments(function, 1);
  const Value actual = InvokeExecutable(*executable, function, args);
  ASSERT_TRUE(CompareValues(actual, Evaluate(function, args)).ok());
  Tensor changed = meta[0].Clone();
  changed.data<float>()[16 * 263 + 260] += 0.05f;
  meta[0] = changed;
  const Function changed_function = ParseModule(c.text, "test", meta).main();
  EXPECT_FALSE(CompareValues(actual, Evaluate(changed_function, args)).ok());
}

}  // namespace
}  // namespace collage
