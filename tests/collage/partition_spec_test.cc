// Phase 1 from declarations, and phase 4 for Primitive partitions calling Composite functions.
#include "collage/partition_spec.h"

#include <gtest/gtest.h>

#include "collage/partitioner.h"
#include "collage_test_graphs.h"
#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "ir/printer.h"
#include "ir/structural_equal.h"
#include "ir/visitor.h"
#include "pattern/pattern_parser.h"

namespace collage {
namespace {

using collage_testing::GraphOf;

// The printed pattern table of PatternTableDeclaration, indented by `indent` spaces.
std::string PatternTableText(size_t indent) {
  const std::string pad(indent, ' ');
  return pad + "UnionPartitionRule(lib.patterns)\n" + pad + "  CompositePartitionRule(lib.conv2d_bias_relu)\n" + pad +
         "    DFPatternPartitionRule(lib.conv2d_bias_relu, nn.relu(nn.bias_add(nn.conv2d(*, *), *)))\n" + pad +
         "  CompositePartitionRule(lib.conv2d_bias)\n" + pad +
         "    DFPatternPartitionRule(lib.conv2d_bias, nn.bias_add(nn.conv2d(*, *), *))\n";
}

SupportDeclaration PatternTableDeclaration() {
  SupportDeclaration declaration;
  declaration.backend = "lib";
  declaration.patterns = {
      {"lib.conv2d_bias_relu", ParsePattern("nn.relu(nn.bias_add(nn.conv2d(*, *), *))"), {}},
      {"lib.conv2d_bias", ParsePattern("nn.bias_add(nn.conv2d(*, *), *)"), {}},
  };
  return declaration;
}

TEST(PartitionSpecTest, PatternTableSpecPrintsTheRfcComposition) {
  EXPECT_EQ(MakePartitionSpec(PatternTableDeclaration()).ToString(),
            "PartitionSpec(lib, backend=lib)\n"
            "  PrimitivePartitionRule(lib)\n"
            "    OnlyValidPartitionRule(lib.patterns.valid, max_exits=1 allow_taps=false max_depth=unlimited)\n" +
                PatternTableText(6));
}

TEST(PartitionSpecTest, MixedDeclarationUnionsOpsAndPatternsUnderFuseOpsRules) {
  SupportDeclaration declaration = PatternTableDeclaration();
  declaration.supports_op = [](const CallNode& call) { return call.op()->name == "nn.relu"; };
  declaration.fuses_like_fuse_ops = true;
  EXPECT_EQ(MakePartitionSpec(declaration).ToString(),
            "PartitionSpec(lib, backend=lib)\n"
            "  PrimitivePartitionRule(lib)\n"
            "    UnionPartitionRule(lib.candidates)\n"
            "      OnlyValidPartitionRule(lib.valid, max_exits=1 allow_taps=false max_depth=6)\n"
            "        CombinePartitionRule(lib.combine, max_exits=1 allow_taps=false max_depth=6, "
            "[AllSimpleCombinerRule(ByKindSimpleCombinerRule(OutEWiseFusable -> Broadcast), "
            "ByKindSimpleCombinerRule(Broadcast -> CommReduce), ByKindSimpleCombinerRule(Injective -> Injective)), "
            "TupleArgCombinerRule, TupleProjCombinerRule, ConstantCombinerRule])\n"
            "          UnionPartitionRule(lib.seeds)\n"
            "            OpPredicatePartitionRule(lib.ops)\n" +
                PatternTableText(12) +
                "      OnlyValidPartitionRule(lib.patterns.valid, max_exits=1 allow_taps=false max_depth=unlimited)\n" +
                PatternTableText(8));
  declaration.supports_op = nullptr;
  EXPECT_NE(MakePartitionSpec(declaration).ToString().find("            OpCallByKindPartitionRule(lib.ops)\n"),
            std::string::npos);
}

TEST(PartitionSpecTest, BadDeclarationsAreErrorsNamingTheBackend) {
  SupportDeclaration declaration = PatternTableDeclaration();
  declaration.patterns[1].label = "other.conv2d_bias";
  try {
    MakePartitionSpec(declaration);
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "backend 'lib': pattern label 'other.conv2d_bias' does not start with 'lib.'");
  }
  try {
    MakePartitionSpec(SupportDeclaration{"empty", {}, {}, false});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "backend 'empty' declares no op predicate, no pattern and no FuseOps-style fusion");
  }
}

// x=0 weight=1 conv=2 bias=3 bias_add=4 relu=5.
TEST(PartitionSpecTest, PatternCandidatesArePrimitivesCallingComposites) {
  const DataflowGraph graph = GraphOf(testing::MakeConvBiasRelu());
  const std::vector<CandidatePartition> candidates = MakePartitionSpec(PatternTableDeclaration()).AllCandidates(graph);
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].sub_graph().ToString(),
            "{2, 4, 5} kind=OutEWiseFusable depth=3 exits={5} label=lib.conv2d_bias_relu "
            "[Compiler=\"lib\", Primitive=1 {2, 4, 5} kind=OutEWiseFusable depth=3 exits={5} "
            "label=lib.conv2d_bias_relu [Composite=\"lib.conv2d_bias_relu\" {2, 4, 5} kind=OutEWiseFusable depth=3 "
            "exits={5} label=lib.conv2d_bias_relu]]");
  EXPECT_EQ(candidates[1].sub_graph().inside().ToString(), "{2, 4}");
}

// A pattern deeper than the combiner's bound is offered whole; what the combiner builds stays
// within the bound.
TEST(PartitionSpecTest, DeepPatternsAreOfferedWhole) {
  std::string chain = "%x";
  for (int i = 0; i < 8; ++i) chain = "nn.relu(" + chain + ")";
  SupportDeclaration declaration;
  declaration.backend = "lib";
  declaration.supports_op = [](const CallNode&) { return true; };
  declaration.fuses_like_fuse_ops = true;
  std::string pattern = "*";
  for (int i = 0; i < 8; ++i) pattern = "nn.relu(" + pattern + ")";
  declaration.patterns = {{"lib.deep", ParsePattern(pattern), {}}};
  const DataflowGraph graph = GraphOf(ParseModule("def @main(%x: Tensor[(4), f32]) { " + chain + " }").main());
  size_t deep = 0;
  for (const CandidatePartition& candidate : MakePartitionSpec(declaration).AllCandidates(graph)) {
    if (candidate.sub_graph().label() == "lib.deep") {
      ++deep;
      EXPECT_EQ(candidate.sub_graph().depth(), 8u);
    } else {
      EXPECT_LE(candidate.sub_graph().depth(), DefaultSubGraphConfig().max_depth);
    }
  }
  EXPECT_EQ(deep, 1u);
}

// The functions called from `function`'s body: "Compiler:symbol" or "Composite:label", nested
// calls after their caller.
std::vector<std::string> CalledFunctions(const Function& function) {
  std::vector<std::string> called;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const Function callee = call ? Downcast<FunctionNode>(call->callee) : nullptr;
    if (callee == nullptr) continue;
    if (callee->attrs.Has(attr::kComposite)) {
      called.push_back("Composite:" + callee->attrs.GetString(attr::kComposite));
    } else {
      called.push_back(callee->attrs.GetString(attr::kCompiler) + ":" + callee->attrs.GetString(attr::kGlobalSymbol));
    }
    for (const std::string& inner : CalledFunctions(callee)) called.push_back("  " + inner);
  }
  return called;
}

TEST(PartitionSpecTest, PartitionedModuleWithNestedCompositesRoundTripsThroughText) {
  const Function original = testing::MakeConvBiasRelu();
  // The whole conv2d_bias_relu pattern is cheaper than the pair plus a separate relu.
  MockCostEstimator estimator([](const DataflowGraph&, const CandidatePartition& candidate) {
    return Cost::Seconds(candidate.backend() == "host" ? 0.0 : 1.0);
  });
  SupportDeclaration relu_library{"other", [](const CallNode& call) { return call.op()->name == "nn.relu"; }, {}, false};
  const PartitionResult result =
      Partition(original, {MakePartitionSpec(PatternTableDeclaration()), MakePartitionSpec(relu_library), MakeHostSpec()},
                estimator);
  EXPECT_EQ(CalledFunctions(result.function),
            std::vector<std::string>({"lib:lib_0", "  Composite:lib.conv2d_bias_relu"}));
  const std::string text = PrintModule(Module(result.function));
  const Module parsed = ParseModule(text, "plan.cir");
  EXPECT_TRUE(StructuralEqual(parsed.main(), result.function)) << text;
  EXPECT_EQ(PrintModule(parsed), text);
  const std::vector<Value> args = RandomArguments(original, 3);
  EXPECT_TRUE(Evaluate(original, args).Flatten()[0].BitwiseEqual(Evaluate(parsed.main(), args).Flatten()[0]));
}

}  // namespace
}  // namespace collage
