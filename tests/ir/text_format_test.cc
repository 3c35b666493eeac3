// Round-trips of the IR text format (print -> parse -> structurally equal, and printing the
// parsed module reproduces the text), the exact printed form, and parser features.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include "build_paths.h"
#include "parser/parser.h"
#include "ir/printer.h"
#include "ir/structural_equal.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "testing/example_graphs.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;
using Ints = std::vector<int64_t>;

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// Parses `text` and returns its @main.
Function ParseMain(const std::string& text) { return ParseModule(text, "test.cir").main(); }

void ExpectRoundTrip(const Function& function, const PrintOptions& options = {}) {
  const std::string text = PrintFunction(function, "main", options);
  Module parsed = ParseModule(text, "round_trip.cir", options.meta_table ? *options.meta_table : std::vector<Tensor>{});
  ASSERT_TRUE(parsed.Has("main")) << text;
  EXPECT_TRUE(StructuralEqual(function, parsed.main())) << text;
  PrintOptions reprint_options = options;
  std::vector<Tensor> reprinted_meta;
  if (options.meta_table) reprint_options.meta_table = &reprinted_meta;
  EXPECT_EQ(PrintFunction(parsed.main(), "main", reprint_options), text);
}

TEST(TextFormatTest, EveryExampleGraphRoundTrips) {
  const auto graphs = testing::ExampleGraphs();
  ASSERT_GE(graphs.size(), 15u);
  for (const auto& [name, function] : graphs) {
    SCOPED_TRACE(name);
    ExpectRoundTrip(function);
  }
}

TEST(TextFormatTest, EveryExampleGraphRoundTripsWithoutTypes) {
  PrintOptions options;
  options.show_types = false;
  for (const auto& [name, function] : testing::ExampleGraphs()) {
    SCOPED_TRACE(name);
    const std::string text = PrintFunction(function, "main", options);
    EXPECT_EQ(text.find(" : "), std::string::npos) << text;
    EXPECT_EQ(text.find(" -> "), std::string::npos) << text;
    EXPECT_TRUE(StructuralEqual(function, ParseMain(text))) << text;
  }
}

TEST(TextFormatTest, ModuleWithSeveralFunctionsRoundTripsMainFirst) {
  Module module;
  const auto graphs = testing::ExampleGraphs();
  module.Add("helper", graphs[2].second);
  module.Add("main", graphs[0].second);
  module.Add("another one", graphs[3].second);
  const std::string text = PrintModule(module);
  EXPECT_EQ(text.rfind("def @main(", 0), 0u) << text;
  EXPECT_NE(text.find("\ndef @helper("), std::string::npos);
  EXPECT_NE(text.find("\ndef @\"another one\"("), std::string::npos);
  Module parsed = ParseModule(text);
  ASSERT_EQ(parsed.functions().size(), 3u);
  EXPECT_EQ(parsed.functions()[1].first, "helper");
  EXPECT_EQ(parsed.functions()[2].first, "another one");
  EXPECT_TRUE(StructuralEqual(module, parsed));
  EXPECT_EQ(PrintModule(parsed), text);
}

TEST(TextFormatTest, PrintsTheDocumentedForm) {
  Var x = MakeVar("x", F32({1, 3, 8, 8}));
  Var w = MakeVar("w", F32({4, 3, 3, 3}));
  Expr conv = CallOp("nn.conv2d", {x, w}, {{"padding", Ints{1, 1, 1, 1}}});
  Expr bias = MakeConstant(Tensor::FromVector<float>({0.5f, -1.25f, 3.0f, 1e-7f}, {4}));
  Expr biased = CallOp("nn.bias_add", {conv, bias});
  Var p0 = MakeVar("p0", F32({1, 4, 8, 8}));
  Function fused = MakeFunction(
      {p0}, CallOp("nn.relu", {p0}),
      {{"Primitive", int64_t{1}}, {"Compiler", std::string("native")}, {"global_symbol", std::string("native_0")}});
  Expr activated = MakeCall(fused, {biased});
  Expr halves = CallOp("split", {activated}, {{"sizes", Ints{2, 2}}, {"axis", int64_t{1}}});
  Function main = MakeFunction({x, w}, MakeTuple({MakeTupleGetItem(halves, 1), activated}));
  InferType(main);
  const std::string expected =
      "def @main(%x: Tensor[(1, 3, 8, 8), f32], %w: Tensor[(4, 3, 3, 3), f32]) -> (Tensor[(1, 2, 8, 8), f32], "
      "Tensor[(1, 4, 8, 8), f32]) {\n"
      "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) : Tensor[(1, 4, 8, 8), f32]\n"
      "  %1 = constant([0.5, -1.25, 3.0, 1e-07], Tensor[(4), f32])\n"
      "  %2 = nn.bias_add(%0, %1) : Tensor[(1, 4, 8, 8), f32]\n"
      "  %3 = fn (%p0: Tensor[(1, 4, 8, 8), f32]) -> Tensor[(1, 4, 8, 8), f32] attrs(Compiler=\"native\", "
      "Primitive=1, global_symbol=\"native_0\") {\n"
      "    %4 = nn.relu(%p0) : Tensor[(1, 4, 8, 8), f32]\n"
      "    %4\n"
      "  }\n"
      "  %5 = %3(%2) : Tensor[(1, 4, 8, 8), f32]\n"
      "  %6 = split(%5, sizes=[2, 2], axis=1) : (Tensor[(1, 2, 8, 8), f32], Tensor[(1, 2, 8, 8), f32])\n"
      "  %7 = %6.1 : Tensor[(1, 2, 8, 8), f32]\n"
      "  %8 = (%7, %5)\n"
      "  %8\n"
      "}\n";
  EXPECT_EQ(PrintFunction(main), expected);
}

TEST(TextFormatTest, SharedNodesPrintOnceAndStaySharedAfterParsing) {
  Var x = MakeVar("x", F32({3}));
  Expr relu = CallOp("nn.relu", {x});
  Function function = MakeFunction({x}, CallOp("add", {relu, CallOp("multiply", {relu, relu})}));
  const std::string text = PrintFunction(function);
  EXPECT_EQ(CountOccurrences(text, "nn.relu("), 1u) << text;
  EXPECT_NE(text.find("multiply(%0, %0)"), std::string::npos) << text;
  const Function parsed = ParseMain(text);
  const auto* add = As<CallNode>(parsed->body);
  ASSERT_NE(add, nullptr);
  const auto* multiply = As<CallNode>(add->args[1]);
  ASSERT_NE(multiply, nullptr);
  EXPECT_EQ(add->args[0], multiply->args[0]);
  EXPECT_EQ(multiply->args[0], multiply->args[1]);
}

TEST(TextFormatTest, AwkwardParameterNamesBecomeUniqueAndNeverNumeric) {
  const auto graphs = testing::ExampleGraphs();
  const auto it =
      std::find_if(graphs.begin(), graphs.end(), [](const auto& entry) { return entry.first == "awkward_names"; });
  ASSERT_NE(it, graphs.end());
  const std::string text = PrintFunction(it->second);
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_NE(header.find("(%x: "), std::string::npos) << header;
  EXPECT_NE(header.find(", %x_1: "), std::string::npos) << header;
  EXPECT_NE(header.find(", %v: "), std::string::npos) << header;
  EXPECT_NE(header.find(", %0_1: "), std::string::npos) << header;
  EXPECT_NE(header.find(", %\"input.1\": "), std::string::npos) << header;
  EXPECT_NE(header.find(", %x_1_1: "), std::string::npos) << header;
  EXPECT_NE(header.find(", %\"say \\\"hi\\\"\": "), std::string::npos) << header;
  const Function parsed = ParseMain(text);
  EXPECT_EQ(parsed->params[4]->name_hint, "input.1");
  EXPECT_EQ(parsed->params[6]->name_hint, "say \"hi\"");
}

// A name taken by an earlier variable ("p_2" below) is skipped by the suffix search, which
// resumes where the last one for its base ended.
TEST(TextFormatTest, ParametersNamedAlikeGetTheSmallestFreeSuffixes) {
  std::vector<Var> params = {MakeVar("p_2", testing::F32({2}))};
  for (int i = 0; i < 4; ++i) params.push_back(MakeVar("p", testing::F32({2})));
  Expr sum = params[0];
  for (size_t i = 1; i < params.size(); ++i) sum = CallOp("add", {sum, params[i]});
  const std::string text = PrintFunction(MakeFunction(params, sum));
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_NE(header.find("(%p_2: Tensor[(2), f32], %p: Tensor[(2), f32], %p_1: Tensor[(2), f32], %p_3: "),
            std::string::npos)
      << header;
  EXPECT_NE(header.find(", %p_4: "), std::string::npos) << header;
}

TEST(TextFormatTest, NestedFunctionsShareTheBindingNumbering) {
  const auto graphs = testing::ExampleGraphs();
  const auto it = std::find_if(graphs.begin(), graphs.end(),
                               [](const auto& entry) { return entry.first == "composite_in_partition"; });
  const std::string text = PrintFunction(it->second);
  // A function prints just before its first user; the numbering runs through nested bodies.
  EXPECT_NE(text.find("  %0 = nn.relu(%x)"), std::string::npos) << text;
  EXPECT_NE(text.find("  %1 = fn (%input: "), std::string::npos) << text;
  EXPECT_NE(text.find("    %2 = constant(["), std::string::npos) << text;
  EXPECT_NE(text.find("    %3 = fn (%data: "), std::string::npos) << text;
  EXPECT_NE(text.find("      %4 = nn.conv2d(%data, %weight)"), std::string::npos) << text;
  EXPECT_NE(text.find("      %5 = nn.relu(%4)"), std::string::npos) << text;
  EXPECT_NE(text.find("      %5\n    }\n    %6 = %3(%input, %2)"), std::string::npos) << text;
  EXPECT_NE(text.find("  %8 = %1(%0)"), std::string::npos) << text;
  EXPECT_NE(text.find("attrs(Composite=\"onednn.conv2d_relu\", PartitionedFromPattern=\"nn.conv2d_nn.relu_\")"),
            std::string::npos)
      << text;
}

TEST(TextFormatTest, FloatConstantsSurviveBitForBit) {
  const std::vector<float> values = {-0.0f,
                                     std::numeric_limits<float>::denorm_min(),
                                     std::numeric_limits<float>::max(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN(),
                                     0.1f,
                                     16777217.0f};
  Function function = MakeFunction({}, MakeConstant(Tensor::FromVector<float>(values, {8})));
  const std::string text = PrintFunction(function);
  EXPECT_NE(text.find("constant([-0.0, 1e-45, 3.4028235e+38, inf, -inf, nan, 0.1, 16777216.0], Tensor[(8), f32])"),
            std::string::npos)
      << text;
  const Function parsed = ParseMain(text);
  const auto* constant = As<ConstantNode>(parsed->body);
  ASSERT_NE(constant, nullptr);
  EXPECT_TRUE(std::signbit(constant->data.data<float>()[0]));
  EXPECT_TRUE(std::isnan(constant->data.data<float>()[5]));
  EXPECT_EQ(std::memcmp(constant->data.data<float>(), values.data(), 5 * sizeof(float)), 0);
}

TEST(TextFormatTest, WideConstantsRoundTripExactly) {
  // f64 prints the shortest double text (0.1 is not float 0.1); u64 keeps 2^63 - 1 exactly and
  // the u16 range is checked.
  Function wide = MakeFunction({}, MakeConstant(Tensor::FromVector<double>({0.1, 1e300}, {2})));
  const std::string text = PrintFunction(wide);
  EXPECT_NE(text.find("constant([0.1, 1e+300], Tensor[(2), f64])"), std::string::npos) << text;
  const Function parsed_wide = ParseMain(text);
  const auto* constant = As<ConstantNode>(parsed_wide->body);
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->data.data<double>()[0], 0.1);
  EXPECT_EQ(constant->data.data<double>()[1], 1e300);
  const Function unsigned_constant =
      ParseMain("def @main() {\n  constant([9223372036854775807, 65535], Tensor[(2), u64])\n}\n");
  const auto* parsed = As<ConstantNode>(unsigned_constant->body);
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(parsed->data.data<uint64_t>()[0], uint64_t{9223372036854775807});
  EXPECT_THROW(ParseMain("def @main() {\n  constant([65536], Tensor[(1), u16])\n}\n"), Error);
}

TEST(TextFormatTest, IntegerConstantsKeepFullInt64Precision) {
  const std::string text =
      "def @main() {\n"
      "  constant([-9223372036854775808, 9223372036854775807, 9007199254740993], Tensor[(3), i64])\n"
      "}\n";
  const Function parsed = ParseMain(text);
  const auto* constant = As<ConstantNode>(parsed->body);
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->data.data<int64_t>()[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(constant->data.data<int64_t>()[1], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(constant->data.data<int64_t>()[2], 9007199254740993);
}

TEST(TextFormatTest, LargeConstantsPrintAsMetaReferencesAndRoundTripWithTheTable) {
  Function function = testing::MakeConvBiasRelu();
  InferType(function);
  std::vector<Tensor> table;
  PrintOptions options;
  options.max_inline_constant_elements = 10;
  options.meta_table = &table;
  const std::string text = PrintFunction(function, "main", options);
  EXPECT_NE(text.find("constant(meta[0], Tensor[(4, 3, 3, 3), f32])"), std::string::npos) << text;
  EXPECT_NE(text.find("constant(["), std::string::npos) << text;  // the 4-element bias stays inline
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].shape(), Shape({4, 3, 3, 3}));
  table.clear();
  ExpectRoundTrip(function, options);
}

TEST(TextFormatTest, MetaReferenceWithoutTableIsAClearError) {
  Function function = testing::MakeConvBiasRelu();
  PrintOptions options;
  options.max_inline_constant_elements = 0;
  const std::string text = PrintFunction(function, "main", options);
  try {
    ParseModule(text, "meta.cir");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& error) {
    EXPECT_NE(std::string(error.what()).find("constant meta[0] has no data in this file"), std::string::npos)
        << error.what();
    EXPECT_EQ(error.location().line, 2);
  }
}

TEST(TextFormatTest, TenThousandNodeChainRoundTrips) {
  Function chain = testing::MakeChain(10000);
  InferType(chain);
  const auto start = std::chrono::steady_clock::now();
  const std::string text = PrintFunction(chain);
  Function parsed = ParseMain(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(CountOccurrences(text, "\n"), 10000u + 3u);
  EXPECT_TRUE(StructuralEqual(chain, parsed));
  EXPECT_EQ(PrintFunction(parsed), text);
  EXPECT_LT(seconds, 30.0);  // generous: linear-time printing and parsing
}

TEST(TextFormatTest, ParsesNestedInlineExpressionsAndTuples) {
  const std::string text =
      "// inline nesting, grouping parentheses and tuples\n"
      "def @main(%x: Tensor[(2, 2), f32], %y: Tensor[(2, 2), f32]) {\n"
      "  %pair = (nn.relu(add(%x, %y)), (%y))  // a 2-tuple whose second field is grouped\n"
      "  (%pair.0, (%x,), ())\n"
      "}\n";
  Var x = MakeVar("x", F32({2, 2}));
  Var y = MakeVar("y", F32({2, 2}));
  Expr pair = MakeTuple({CallOp("nn.relu", {CallOp("add", {x, y})}), y});
  Function expected = MakeFunction({x, y}, MakeTuple({MakeTupleGetItem(pair, 0), MakeTuple({x}), MakeTuple({})}));
  EXPECT_TRUE(StructuralEqual(expected, ParseMain(text)));
}

TEST(TextFormatTest, ParserFillsDefaultAttributesAndConvertsIntsToFloats) {
  const Function parsed = ParseMain(
      "def @main(%x: Tensor[(1, 1, 3, 3), f32], %w: Tensor[(1, 1, 1, 1), f32]) {\n"
      "  nn.leaky_relu(nn.conv2d(%x, %w), alpha=1)\n"
      "}\n");
  const auto* leaky = As<CallNode>(parsed->body);
  ASSERT_NE(leaky, nullptr);
  EXPECT_EQ(leaky->attrs.Get("alpha"), AttrValue(1.0));
  const auto* conv = As<CallNode>(leaky->args[0]);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->attrs.GetInts("strides"), Ints({1, 1}));
  EXPECT_EQ(conv->attrs.GetInt("groups"), 1);
}

TEST(TextFormatTest, NodesCarryTheirSourceLocation) {
  const Function parsed = ParseModule(
                              "def @main(%x: Tensor[(4), f32]) {\n"
                              "  %0 = nn.relu(%x)\n"
                              "  %1 = (%0, %0)\n"
                              "     %1.1\n"
                              "}\n",
                              "where.cir")
                              .main();
  EXPECT_EQ(parsed->location().ToString(), "where.cir:1:5");
  EXPECT_EQ(parsed->params[0]->location().ToString(), "where.cir:1:11");
  const auto* item = As<TupleGetItemNode>(parsed->body);
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(parsed->body->location().ToString(), "where.cir:4:6");
  EXPECT_EQ(item->tuple->location().ToString(), "where.cir:3:8");
  EXPECT_EQ(As<TupleNode>(item->tuple)->fields[0]->location().ToString(), "where.cir:2:8");
}

TEST(TextFormatTest, MissingMainIsNotAnError) {
  Module module = ParseModule("def @helper(%x: Tensor[(1), f32]) { nn.relu(%x) }");
  EXPECT_FALSE(module.Has("main"));
  ASSERT_TRUE(module.Has("helper"));
  EXPECT_TRUE(TypeEqual(module.Get("helper")->body->checked_type(), F32({1})));
  EXPECT_TRUE(ParseModule("  // nothing but a comment\n").functions().empty());
}

TEST(TextFormatTest, InlineFunctionCallsAndProjectionChains) {
  const Function parsed = ParseMain(
      "def @main(%x: Tensor[(2), f32]) {\n"
      "  %t = fn (%a: Tensor[(2), f32]) { ((%a, %a), %a) }(%x)\n"
      "  %t.0.1\n"
      "}\n");
  const auto* outer = As<TupleGetItemNode>(parsed->body);
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->index, 1);
  const auto* inner = As<TupleGetItemNode>(outer->tuple);
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->index, 0);
  EXPECT_NE(As<FunctionNode>(As<CallNode>(inner->tuple)->callee), nullptr);
  EXPECT_TRUE(TypeEqual(parsed->body->checked_type(), F32({2})));
}

TEST(TextFormatTest, PrintExprShowsSubgraphs) {
  Var x = MakeVar("x", F32({2}));
  Expr relu = CallOp("nn.relu", {x});
  EXPECT_EQ(PrintExpr(CallOp("add", {relu, relu})), "%0 = nn.relu(%x)\n%1 = add(%0, %0)\n%1\n");
}

TEST(TextFormatTest, ExampleFilesParse) {
  const std::filesystem::path examples = std::filesystem::path(COLLAGE_SOURCE_DIR) / "examples";
  for (const char* name : {"conv_block.cir", "mlp.cir"}) {
    SCOPED_TRACE(name);
    Module module = ParseModuleFile((examples / name).string());
    ASSERT_TRUE(module.Has("main"));
    EXPECT_TRUE(module.main()->body->checked_type() != nullptr);
    EXPECT_TRUE(StructuralEqual(module, ParseModule(PrintModule(module))));
  }
  const std::string ill_typed = (examples / "ill_typed.cir").string();
  try {
    ParseModuleFile(ill_typed);
    FAIL() << "ill_typed.cir should not type-check";
  } catch (const TypeError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(ill_typed + ":", 0), 0u) << error.what();
    EXPECT_NE(std::string(error.what()).find("nn.dense"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace collage
