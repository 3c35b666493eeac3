#include <gtest/gtest.h>

#include "backend/precision.h"
#include "collage/outline_partitions.h"
#include "collage/partition_function.h"
#include "collage/partition_rule.h"
#include "collage/partition_spec.h"
#include "collage_test_graphs.h"
#include "ir/visitor.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

// add(y, conv(relu(x), w)): indices y=0 x=1 relu=2 w=3 conv=4 add=5, so the candidate
// {conv, add} has inputs y (0) and relu (2).
Function ConvAddModel() {
  Var x = MakeVar("x", testing::F32({1, 2, 4, 4}));
  Var y = MakeVar("y", testing::F32({1, 3, 4, 4}));
  Constant weight = MakeConstant(Tensor::Random(DType::kF32, {3, 2, 1, 1}, 7));
  Expr conv = CallOp("nn.conv2d", {CallOp("nn.relu", {x}), weight});
  return MakeFunction({x, y}, CallOp("add", {y, conv}));
}

SupportDeclaration Int8ConvolutionBackend() {
  SupportDeclaration declaration = collage_testing::Declare("lib", {"nn.relu", "nn.conv2d", "add"});
  declaration.reduced_precisions = {DType::kI8};
  declaration.supports_precision = [](const CallNode& call, DType precision) {
    return precision == DType::kI8 && call.op()->name == "nn.conv2d";
  };
  return declaration;
}

// Distinct ranges: y [-3, 4], x [-1, 1], relu [0, 2].
CalibratedRangeOf FixedRanges(const DataflowGraph& graph) {
  return [&graph](const ExprNode& node) -> std::optional<ActivationRange> {
    switch (graph.IndexOf(&node)) {
      case 0: return ActivationRange{-3, 4};
      case 1: return ActivationRange{-1, 1};
      case 2: return ActivationRange{0, 2};
      default: return std::nullopt;
    }
  };
}

std::vector<std::string> Described(const std::vector<CandidatePartition>& candidates) {
  std::vector<std::string> described;
  for (const CandidatePartition& candidate : candidates) {
    described.push_back(candidate.sub_graph().inside().ToString() + " " + std::string(DTypeName(candidate.precision())));
  }
  return described;
}

TEST(PrecisionVariantsTest, WithoutCalibratedRangesTheCandidatesAreTheF32Ones) {
  const Function model = ConvAddModel();
  const DataflowGraph graph = GraphOf(model);
  PartitionSpec with_precisions = MakePartitionSpec(Int8ConvolutionBackend());
  SupportDeclaration f32_only = Int8ConvolutionBackend();
  f32_only.reduced_precisions.clear();
  f32_only.supports_precision = nullptr;
  const std::vector<CandidatePartition> offered = with_precisions.AllCandidates(graph);
  const std::vector<CandidatePartition> f32 = MakePartitionSpec(f32_only).AllCandidates(graph);
  ASSERT_EQ(offered.size(), f32.size());
  for (size_t i = 0; i < offered.size(); ++i) {
    EXPECT_TRUE(offered[i].sub_graph() == f32[i].sub_graph()) << i;
    EXPECT_FALSE(PrimitiveAttrs(offered[i].sub_graph())->Has(attr::kPrecision));
  }
}

TEST(PrecisionVariantsTest, OnlyCandidatesWhoseSupportedCallReadsAParameterGetAVariant) {
  const Function model = ConvAddModel();
  const DataflowGraph graph = GraphOf(model);
  PartitionSpec spec = MakePartitionSpec(Int8ConvolutionBackend());
  spec.calibrated_range = FixedRanges(graph);
  // {2, 4}: the convolution reads relu inside, so no i8; {4}, {4, 5}: it reads relu, a parameter.
  EXPECT_EQ(Described(spec.AllCandidates(graph)),
            std::vector<std::string>({"{2} f32", "{2, 4} f32", "{2, 4, 5} f32", "{4} f32", "{4} i8", "{4, 5} f32",
                                      "{4, 5} i8", "{5} f32"}));
  // An input without a calibrated range: no variant.
  spec.calibrated_range = [](const ExprNode&) { return std::nullopt; };
  for (const CandidatePartition& candidate : spec.AllCandidates(graph)) EXPECT_EQ(candidate.precision(), DType::kF32);
}

// The function's parameter ranges are its arguments' calibrated ranges, whatever order the
// outliner gives its parameters, both as measured and as placed.
TEST(PrecisionVariantsTest, RangesFollowTheParametersWhenExtractedAndOutlined) {
  const Function model = ConvAddModel();
  const DataflowGraph graph = GraphOf(model);
  PartitionSpec spec = MakePartitionSpec(Int8ConvolutionBackend());
  spec.calibrated_range = FixedRanges(graph);
  const std::vector<CandidatePartition> candidates = spec.AllCandidates(graph);
  const auto reduced = std::find_if(candidates.begin(), candidates.end(), [](const CandidatePartition& candidate) {
    return candidate.precision() == DType::kI8 && candidate.sub_graph().inside().Count() == 2;
  });
  ASSERT_NE(reduced, candidates.end());
  // In index order: y, then relu.
  EXPECT_EQ(PrimitiveAttrs(reduced->sub_graph())->GetFloats(attr::kActivationRanges),
            std::vector<double>({-3, 4, 0, 2}));

  const Function extracted = ExtractPartitionFunction(graph, *reduced);
  ASSERT_EQ(extracted->params.size(), 2u);
  const std::vector<ActivationRange> extracted_ranges = ParameterRangesOf(extracted);
  for (size_t i = 0; i < 2; ++i) {
    const bool is_y = TypeToString(extracted->params[i]->checked_type()) == "Tensor[(1, 3, 4, 4), f32]";
    EXPECT_EQ(extracted_ranges[i], is_y ? (ActivationRange{-3, 4}) : (ActivationRange{0, 2})) << i;
  }

  CandidatePartition relu(SubGraph(graph, [&] {
                            IndexSet inside(graph.size());
                            inside.Add(2);
                            return inside;
                          }()),
                          "host", "host", "host");
  NameSupply names;
  const Function outlined = OutlinePartitions(model, graph, {relu, *reduced}, names);
  const auto* call = As<CallNode>(outlined->body);
  ASSERT_NE(call, nullptr);
  const Function partition = Downcast<FunctionNode>(call->callee);
  const std::vector<ActivationRange> placed = ParameterRangesOf(partition);
  ASSERT_EQ(call->args.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const bool is_y = call->args[i].get() == model->params[1].get();
    EXPECT_EQ(placed[i], is_y ? (ActivationRange{-3, 4}) : (ActivationRange{0, 2})) << i;
  }
}

TEST(PrecisionVariantsTest, RangesBySignKeepTheElementTypes) {
  const Function model = ConvAddModel();
  const Function ranged = WithPrecision(model, DType::kI8, {{0, 7}, {-2, 0.5}});
  EXPECT_EQ(ParameterRangesOf(WithRangesBySign(ranged)), std::vector<ActivationRange>({{0, 1}, {-1, 1}}));
  EXPECT_EQ(WithRangesBySign(model).get(), model.get());
}

TEST(PrecisionVariantsTest, ListingsNameThePrecision) {
  EXPECT_EQ(WithLayoutsSuffix("onednn", PartitionLayouts{}), "onednn");
  EXPECT_EQ(WithLayoutsSuffix("onednn", PartitionLayouts{}, DType::kI8), "onednn [i8]");
  EXPECT_EQ(WithLayoutsSuffix("onednn", PartitionLayouts::Uniform(Layout::kChannelsLast), DType::kI8),
            "onednn [nhwc i8]");
  EXPECT_EQ(WithLayoutsSuffix("onednn", {Layout::kPlain, Layout::kChannelBlocked8}, DType::kI8),
            "onednn [plain>nchw8c i8]");
}

}  // namespace
}  // namespace collage
