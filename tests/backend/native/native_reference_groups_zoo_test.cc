// No silent slow path in the native backend: on every zoo model, compiled whole, every FuseOps
// group is a generated kernel; none runs through the reference kernels (what the generator does
// for an op or dtype it lacks).
#include <gtest/gtest.h>

#include "backend/native/execution_planner.h"
#include "backend/native/native_backend.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "ir/op_registry.h"
#include "parser/parser.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/fused_forms/decomposed_forms.h"

namespace collage {
namespace {

// The ops of the groups that run through the reference kernels.
std::vector<std::string> ReferenceGroupOps(const Function& function) {
  const native::PlannedFunction planned = native::PlanFunction(FuseDecomposedFormsInPartition(function, NativeFusedForms()));
  std::vector<std::string> ops;
  for (const native::Step& step : planned.plan.steps) {
    if (!step.fallback) continue;
    for (const Expr& node : PostOrder(step.fallback->body)) {
      if (const auto* call = As<CallNode>(node); call != nullptr && call->op() != nullptr) ops.push_back(call->op()->name);
    }
  }
  return ops;
}

class NativeReferenceGroupsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(NativeReferenceGroupsTest, EveryGroupIsGenerated) {
  const std::filesystem::path dir = testing::ZooCacheDir();
  if (const std::string why = testing::EnsureZooModelExported(dir, GetParam()); !why.empty()) GTEST_SKIP() << why;
  const OnnxModel model = ImportOnnxFile((dir / (GetParam() + ".onnx")).string());
  EXPECT_EQ(ReferenceGroupOps(model.module.main()), std::vector<std::string>{});
}

// The negative control: groups the generator lacks (f16) are found.
class NativeReferenceGroupsControl : public ::testing::TestWithParam<std::string> {};

TEST_P(NativeReferenceGroupsControl, FindsReferenceGroups) {
  const Module module = ParseModule(GetParam());
  InferType(module);
  const Function function = module.main();
  EXPECT_EQ(ReferenceGroupOps(function), std::vector<std::string>{"nn.relu"});
}

INSTANTIATE_TEST_SUITE_P(ZooStructure, NativeReferenceGroupsControl,
                         ::testing::Values("def @main(%x: Tensor[(4), f16]) { nn.relu(%x) }"));

INSTANTIATE_TEST_SUITE_P(ZooStructure, NativeReferenceGroupsTest, ::testing::ValuesIn(testing::AllZooModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
