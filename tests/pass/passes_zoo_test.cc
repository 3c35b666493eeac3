// The standard passes and FuseOps on imported zoo models.
//
// ZooSmall/PassesZooTest: each pass, applied in pipeline order, keeps the reference
// interpreter's outputs on the model's stored input (within 1e-4 x max |output|: folding
// batch norm into weights changes rounding).
// ZooStructure/FusedGroupCountTest: the number of Primitive groups FuseOps makes on the
// large models, explained next to each count. Both run in the default `zoo` label.
#include <gtest/gtest.h>

#include <string>

#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/fuse_ops.h"
#include "pass/standard_passes.h"
#include "runtime/compare.h"

namespace collage {
namespace {

class PassesZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PassesZooTest, EveryPassKeepsTheOutputs) {
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(GetParam(), &why);
  if (!zoo) GTEST_SKIP() << why;
  const std::vector<Value>& inputs = zoo->arguments;
  const Value expected = Evaluate(zoo->model.module.main(), inputs);

  // The imported module is already type-checked, so InferTypePass has nothing to change.
  const std::vector<Pass> pipeline = {SimplifyInference(), FoldPadding(), FoldConstant(), EliminateCommonSubexpr(),
                                      DeadCodeElimination(), FuseOps()};
  Module module = zoo->model.module;
  for (const Pass& pass : pipeline) {
    module = pass(module);
    const Value actual = Evaluate(module.main(), inputs);
    const Comparison comparison = CompareValues(actual, expected);
    EXPECT_TRUE(comparison.ok()) << "after " << pass.info().name << ": " << comparison.first_mismatch;
  }
}

INSTANTIATE_TEST_SUITE_P(ZooSmall, PassesZooTest,
                         ::testing::ValuesIn(testing::SmallZooModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The Primitive groups of @main after SimplifyInference, FoldConstant and FuseOps.
size_t FusedGroupCount(const Module& module) {
  const Module fused = FuseOps()(FoldConstant()(SimplifyInference()(module)));
  size_t groups = 0;
  for (const Expr& node : PostOrder(fused.main()->body)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call != nullptr ? As<FunctionNode>(call->callee) : nullptr;
    if (callee != nullptr && callee->attrs.Has(attr::kPrimitive)) ++groups;
  }
  return groups;
}

struct GroupCountCase {
  std::string model;
  size_t expected_groups;
};

class FusedGroupCountTest : public ::testing::TestWithParam<GroupCountCase> {};

TEST_P(FusedGroupCountTest, MatchesTheArchitecture) {
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(GetParam().model, &why);
  if (!zoo) GTEST_SKIP() << why;
  EXPECT_EQ(FusedGroupCount(zoo->model.module), GetParam().expected_groups);
}

// resnet50 (torch exports each conv with its batch norm already folded into weights + bias):
//   33  conv + bias + relu: the stem and the first two convs of the 16 bottleneck blocks;
//   16  conv + bias + residual add + relu: each block's third conv, which post-dominates the
//       add and the relu (elementwise path);
//    4  conv + bias: the downsampling shortcut convs; their add already belongs to the
//       third conv's group, and a group holds one anchor;
//    4  max_pool2d, global_avg_pool2d, flatten, dense + bias (the classifier) on their own:
//       pools are not fused into a later anchor and flatten feeds an anchor's input side.
//   = 57.
// bert_encoder (12 post-norm blocks), 15 groups per block:
//    3  dense + bias for q, k, v;  3  reshape + transpose splitting each into heads;
//    1  matmul q.k^T + divide by sqrt(d);  1  softmax (a reduction: not fused after an anchor);
//    1  matmul with v;  1  transpose + reshape merging the heads;
//    1  output dense + bias + residual add;  1  layer_norm;
//    1  feed-forward dense + bias + erf-GELU (divide, erf, add, multiply, multiply);
//    1  second dense + bias + residual add;  1  layer_norm;
// layer_norm and softmax are reductions, so an anchor's elementwise chain stops before them.
// Outside the blocks: token embedding take + add of the (folded) position embeddings, the
// embedding layer_norm, the take of token 0 and the pooler dense + bias + tanh: 4.
//   = 12 x 15 + 4 = 184.
INSTANTIATE_TEST_SUITE_P(ZooStructure, FusedGroupCountTest,
                         ::testing::Values(GroupCountCase{"resnet50", 57}, GroupCountCase{"bert_encoder", 184}),
                         [](const ::testing::TestParamInfo<GroupCountCase>& info) { return info.param.model; });

}  // namespace
}  // namespace collage
