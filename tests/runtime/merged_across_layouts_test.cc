// Partitions merged across boundary layouts (CoalescePartitions with an offered-boundary rule)
// compile on the backend that declared the boundaries and compute what the interpreter does:
// a channel-blocked-leaving partition merged with a blocked one keeps its mixed boundary, and
// the executor converts at its edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "backend/backend.h"
#include "build_paths.h"
#include "collage/coalesce_partitions.h"
#include "collage/outline_partitions.h"
#include "interpreter/interpreter.h"
#include "ir/type_inference.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "support/partition_layouts.h"
#include "support/tensor_format.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

Expr Conv(const Expr& input, uint64_t seed) {
  return CallOp("nn.conv2d", {input, MakeConstant(Tensor::Random(DType::kF32, {8, 8, 3, 3}, seed))},
                {{"padding", std::vector<int64_t>{1, 1, 1, 1}}});
}

TEST(MergedAcrossLayoutsTest, AMergedMixedBoundaryPartitionMatchesTheInterpreter) {
  const BackendRegistry& registry = BackendRegistry::Global();
  if (registry.Find("onednn") == nullptr || registry.Find("native") == nullptr) {
    GTEST_SKIP() << "built without onednn or native";
  }
  Var x = MakeVar("x", testing::F32({1, 8, 6, 6}));
  Expr first = Conv(x, 1);
  Expr relu = CallOp("nn.relu", {first});
  Expr second = Conv(relu, 2);
  Expr sum = CallOp("add", {second, x});
  Function function = MakeFunction({x}, sum);
  InferType(function);
  const DataflowGraph graph = DataflowGraph::Create(function->body);

  const auto partition = [&](const std::vector<Expr>& nodes, const std::string& backend, const std::string& boundary) {
    std::vector<size_t> indices;
    for (const Expr& node : nodes) indices.push_back(graph.IndexOf(node.get()));
    Attrs attrs{{attr::kPrimitive, int64_t{1}}, {attr::kCompiler, backend}};
    if (boundary != "plain") attrs.Set(attr::kBoundaryLayout, boundary);
    const SubGraph sub_graph(graph, IndexSet(graph.size(), indices));
    return CandidatePartition(sub_graph.WithAttrs(graph, std::move(attrs)), backend, backend, "ops");
  };
  const SupportDeclaration onednn = registry.Get("onednn")->Support();
  const BoundaryOffered declared = [&](const std::string& spec, const PartitionLayouts& layouts) {
    if (spec != "onednn") return layouts.IsPlain();
    const auto& uniform = onednn.boundary_layouts;
    const auto& mixed = onednn.mixed_boundary_layouts;
    return layouts.IsUniform() ? std::find(uniform.begin(), uniform.end(), layouts.parameters) != uniform.end()
                               : std::find(mixed.begin(), mixed.end(), layouts) != mixed.end();
  };
  // The layout oneDNN's convolutions compute in on this CPU (channel blocks or channels-last).
  if (onednn.mixed_boundary_layouts.empty()) GTEST_SKIP() << "onednn has no preferred convolution layout here";
  const PartitionLayouts plain_to_preferred = onednn.mixed_boundary_layouts.front();
  const std::string preferred = LayoutName(plain_to_preferred.results);
  ASSERT_EQ(PartitionLayoutsName(plain_to_preferred), "plain>" + preferred);
  const std::vector<CandidatePartition> merged = CoalescePartitions(
      graph,
      {partition({first}, "onednn", "plain>" + preferred), partition({relu}, "onednn", preferred),
       partition({second}, "native", "plain"), partition({sum}, "native", "plain")},
      [](const CandidatePartition&) { return true; }, {declared});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(PartitionLayoutsName(merged[0].boundary_layouts()), "plain>" + preferred);
  EXPECT_EQ(merged[0].backend(), "onednn");

  NameSupply names;
  const Function outlined = OutlinePartitions(function, graph, merged, names);
  ExecutorOptions options;
  options.compile.cache_dir = std::string(COLLAGE_BINARY_DIR) + "/test-cache";
  Executor executor(Module(outlined), registry, options);
  const std::vector<Value> args = {Value(Tensor::Random(DType::kF32, {1, 8, 6, 6}, 7))};
  const Value expected = Evaluate(function, args);
  const Comparison comparison = CompareValues(executor.Run(args), expected);
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
  // Negative control: the same comparison refuses the merged partition's output perturbed.
  Tensor perturbed = executor.Run(args).tensor();
  double magnitude = 0;
  for (int64_t i = 0; i < expected.tensor().NumElements(); ++i) {
    magnitude = std::max(magnitude, std::abs(expected.tensor().GetAsDouble(i)));
  }
  perturbed.SetFromDouble(5, perturbed.GetAsDouble(5) + 1e-2 * magnitude);
  EXPECT_FALSE(CompareValues(Value(perturbed), expected).ok());
}

}  // namespace
}  // namespace collage
