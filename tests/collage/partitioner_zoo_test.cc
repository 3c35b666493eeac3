// The Collage partitioner on the CI zoo models: for several backend menus (test declarations:
// an op-predicate library, a pattern-table library and a FuseOps-like code generator), the
// partitioned module evaluates to the original's outputs on the model's stored input, every
// op call ends up inside a partition or on the host only when no spec took it, and the
// search's total is the sum of the chosen candidates' costs.
#include <gtest/gtest.h>

#include "collage/partition_spec.h"
#include "collage/partitioner.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"
#include "pattern/pattern_parser.h"
#include "runtime/compare.h"

namespace collage {
namespace {

SupportDeclaration OpLibrary(const std::string& backend, std::set<std::string> ops) {
  SupportDeclaration declaration;
  declaration.backend = backend;
  declaration.supports_op = [ops](const CallNode& call) { return ops.count(call.op()->name) > 0; };
  return declaration;
}

SupportDeclaration PatternLibrary(const std::string& backend) {
  SupportDeclaration declaration;
  declaration.backend = backend;
  for (LabelledPattern& entry : ParsePatternTable(backend + ".conv2d_bias_relu := nn.relu((nn.bias_add | add)(nn.conv2d(*, const), const))\n" +
                                                  backend + ".conv2d_bias := (nn.bias_add | add)(nn.conv2d(*, const), const)\n" +
                                                  backend + ".dense_bias := (nn.bias_add | add)(nn.dense(*, const), const)\n")) {
    declaration.patterns.push_back({entry.label, entry.pattern, {}});
  }
  return declaration;
}

SupportDeclaration CodeGenerator(const std::string& backend) {
  SupportDeclaration declaration;
  declaration.backend = backend;
  declaration.supports_op = [](const CallNode&) { return true; };
  declaration.fuses_like_fuse_ops = true;
  return declaration;
}

std::map<std::string, BackendPerformance> Performances() {
  std::map<std::string, BackendPerformance> table;
  BackendPerformance blas;
  blas.peak_flops = 2e11;
  BackendPerformance dnnl;
  dnnl.peak_flops = 1.5e11;
  dnnl.default_efficiency = 0.8;
  BackendPerformance codegen;
  codegen.peak_flops = 1e11;
  table["blas"] = blas;
  table["dnnl"] = dnnl;
  table["codegen"] = codegen;
  table[MakeHostSpec().backend] = BackendPerformance{};  // constants, tuples, projections: no compute
  return table;
}

struct Menu {
  std::string name;
  std::vector<SupportDeclaration> declarations;
};

std::vector<Menu> Menus() {
  return {
      {"codegen_only", {CodeGenerator("codegen")}},
      {"libraries_and_codegen",
       {OpLibrary("blas", {"nn.dense", "nn.matmul", "nn.batch_matmul"}), PatternLibrary("dnnl"), CodeGenerator("codegen")}},
  };
}

class PartitionerZooTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PartitionerZooTest, PartitionedModelKeepsTheOutputs) {
  std::string why;
  const std::optional<testing::ZooCase> zoo = testing::LoadZooCase(GetParam(), &why);
  if (!zoo) GTEST_SKIP() << why;
  const Module simplified = FoldConstant()(SimplifyInference()(zoo->model.module));
  const std::vector<Value>& inputs = zoo->arguments;
  const Value expected = Evaluate(simplified.main(), inputs);

  for (const Menu& menu : Menus()) {
    SCOPED_TRACE(menu.name);
    std::vector<PartitionSpec> specs;
    for (const SupportDeclaration& declaration : menu.declarations) specs.push_back(MakePartitionSpec(declaration));
    specs.push_back(MakeHostSpec());
    AnalyticCostEstimator estimator(Performances());
    const PartitionResult result = Partition(simplified.main(), specs, estimator);

    const DataflowGraph graph = DataflowGraph::Create(simplified.main()->body);
    Cost sum = Cost::Zero();
    for (const CandidatePartition& candidate : result.chosen) sum += candidate.EstimatedCost(graph, estimator);
    EXPECT_NEAR(sum.seconds(), result.total.seconds(), 1e-9 * result.total.seconds());

    // Every op call of the partitioned @main is inside a partition (the code generator takes any op).
    for (const Expr& node : PostOrder(result.function->body, /*enter_functions=*/false)) {
      const auto* call = As<CallNode>(node);
      EXPECT_FALSE(call != nullptr && call->op() != nullptr) << "op call left outside a partition: " << call->op()->name;
    }
    const Comparison comparison = CompareValues(Evaluate(result.function, inputs), expected);
    EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  }
}

INSTANTIATE_TEST_SUITE_P(ZooSmall, PartitionerZooTest,
                         ::testing::ValuesIn(testing::SmallZooModels()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace collage
