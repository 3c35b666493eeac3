// No silent slow path in the onednn backend: every zoo model placed on oneDNN alone (BYOC
// greedy over its op predicate and pattern table, the rest on the host) compiles each
// partition without one of oneDNN's reference implementations, which the backend refuses
// ("slow path") rather than runs.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "ir/visitor.h"
#include "pass/byoc/partition_greedy.h"

namespace collage {
namespace {

class OnednnReferenceZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OnednnReferenceZooTest, EveryPartitionCompilesWithOptimizedKernels) {
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
  const std::filesystem::path dir = testing::ZooCacheDir();
  if (const std::string why = testing::EnsureZooModelExported(dir, GetParam()); !why.empty()) GTEST_SKIP() << why;
  const OnnxModel model = ImportOnnxFile((dir / (GetParam() + ".onnx")).string());
  const Module placed = PartitionFor(backend->Support())(model.module);
  CompileOptions options;
  options.threads = 2;
  size_t partitions = 0;
  for (const Expr& node : PostOrder(placed.main())) {
    const auto* function = As<FunctionNode>(node);
    if (function == nullptr || !function->attrs.Has(attr::kCompiler)) continue;
    ++partitions;
    try {
      backend->Compile(Downcast<FunctionNode>(node), options);
    } catch (const Error& error) {
      ADD_FAILURE() << GetParam() << ": " << error.what();
    }
  }
  EXPECT_GT(partitions, 0u);
}

INSTANTIATE_TEST_SUITE_P(ZooStructure, OnednnReferenceZooTest, ::testing::ValuesIn(testing::AllZooModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
