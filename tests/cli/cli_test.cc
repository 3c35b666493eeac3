// End-to-end tests of the collage command-line tool (the fixture is in cli_fixture.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "build_paths.h"
#include "backend/backend.h"
#include "cli/cli_fixture.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "parser/parser.h"
#include "ir/structural_equal.h"
#include "runtime/cost_database.h"
#include "support/cpu_features.h"

namespace collage {
namespace {

using testing::CliPath;
using testing::CliResult;
using testing::CliTest;
using testing::Quote;

constexpr const char* kSingleOutputModel = R"(def @main(%a: Tensor[(4), i32]) {
  multiply(%a, %a)
}
)";

// add of (2, 3) and (4): the error is at line 2, column 3.
constexpr const char* kIllTypedModel = R"(def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(4), f32]) {
  add(%x, %y)
}
)";

TEST_F(CliTest, HelpListsTheCommands) {
  for (const char* spelling : {"--help", "help", "-h"}) {
    const CliResult result = Run({spelling});
    EXPECT_EQ(result.exit_code, 0) << spelling;
    EXPECT_EQ(result.out.rfind("usage: collage COMMAND", 0), 0u) << result.out;
    for (const char* command : {"import", "partition", "run", "backends", "db"}) {
      EXPECT_NE(result.out.find("\n  " + std::string(command) + " "), std::string::npos) << command;
    }
    EXPECT_TRUE(result.err.empty());
  }
}

TEST_F(CliTest, CommandHelpListsItsOptions) {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"help", "run"}, std::vector<std::string>{"run", "--help"}}) {
    const CliResult result = Run(arguments);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out.rfind("usage: collage run MODEL", 0), 0u) << result.out;
    for (const char* option :
         {"--seed S", "--check", "--inputs IN.npz", "--outputs OUT.npz", "--backends", "--threads N", "--profile",
          "--repeat N"}) {
      EXPECT_NE(result.out.find(option), std::string::npos) << option;
    }
  }
}

TEST_F(CliTest, BadUsageExitsWithTwo) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  ExpectUsageError(Run({}), "missing COMMAND");
  ExpectUsageError(Run({"frobnicate"}), "unknown command 'frobnicate'");
  ExpectUsageError(Run({"--frobnicate"}), "unknown option '--frobnicate'");
  ExpectUsageError(Run({"help", "frobnicate"}), "unknown command 'frobnicate'");
  ExpectUsageError(Run({"run"}), "missing MODEL");
  ExpectUsageError(Run({"run", model, "--fast"}), "unknown option '--fast' for 'run'");
  ExpectUsageError(Run({"run", model, "--seed"}), "option --seed needs a value");
  ExpectUsageError(Run({"run", model, "--seed", "x1"}), "--seed expects an integer");
  ExpectUsageError(Run({"run", model, "--threads", "0"}), "--threads expects an integer in [1, ");
  ExpectUsageError(Run({"run", model, "--check=yes"}), "option --check takes no value");
  ExpectUsageError(Run({"run", model, "--seed", "1", "--seed", "2"}), "option --seed given twice");
  ExpectUsageError(Run({"run", model, "other.cir"}), "unexpected argument 'other.cir'");
  ExpectUsageError(Run({"backends", "extra"}), "unexpected argument 'extra'");
}

TEST_F(CliTest, UnknownBackendListsTheAvailableOnes) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"run", model, "--backends", "reference,tvm"});
  std::string available;
  for (const std::string& name : BackendRegistry::Global().Names()) available += (available.empty() ? "" : ", ") + name;
  ExpectUsageError(result, "unknown backend 'tvm' (available: " + available + ")");
  EXPECT_TRUE(result.out.empty());
}

TEST_F(CliTest, BackendsListsTheRegistryWithPatternCounts) {
  const CliResult result = Run({"backends"});
  EXPECT_EQ(result.exit_code, 0);
  // Columns are as wide as their longest entry, which depends on the backends of the build, so
  // lines are compared word by word.
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    rows.emplace_back(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
  }
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "kind", "device", "patterns", "precisions"})) << result.out;
  EXPECT_NE(
      std::find(rows.begin(), rows.end(), std::vector<std::string>{"reference", "interpreter", "cpu", "0", "f32"}),
      rows.end())
      << result.out;
  EXPECT_EQ(CountLines(result.out), 2 + static_cast<int>(BackendRegistry::Global().All().size()));
  EXPECT_NE(result.out.find("\nreduced precision ISA: " + DescribeReducedPrecisionIsa(DetectReducedPrecisionIsa()) +
                            "\n"),
            std::string::npos)
      << result.out;
}

TEST_F(CliTest, RunProfilePrintsEveryPartitionAndTheActivationMemory) {
  const std::string path = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"run", path, "--backends", "reference", "--profile", "--check"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("partition    backend    ops  runs  mean ms  median ms   share\n", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("\nreference_0  reference    1     1"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\nreference_1  reference    2     1"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\ntotal                     3"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("activation memory: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("max abs error: 0, relative to the output's magnitude: 0\n"), std::string::npos) << result.out;
}

TEST_F(CliTest, RunRepeatProfilesTheRunsAfterAWarmUp) {
  const std::string path = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"run", path, "--backends", "reference", "--profile", "--repeat", "4", "--check"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\nreference_0  reference    1     4"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\nreference_1  reference    2     4"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("max abs error: 0, relative to the output's magnitude: 0\n"), std::string::npos) << result.out;
  ExpectUsageError(Run({"run", path, "--repeat", "0"}), "--repeat expects an integer in [1, 100000], got '0'");
}

TEST_F(CliTest, MissingModelFileIsAnErrorNamingIt) {
  const std::string path = directory_.PathOf("no_such_model.cir");
  ExpectError(Run({"run", path}), "'" + path + "'");
  ExpectError(Run({"import", path}), "'" + path + "'");
}

TEST_F(CliTest, IllTypedModelReportsLineAndColumn) {
  const std::string path = WriteModel("ill_typed.cir", kIllTypedModel);
  const CliResult result = Run({"run", path});
  ExpectError(result, path + ":2:3: add: ");
  EXPECT_TRUE(result.out.empty());
  ExpectError(Run({"import", path}), path + ":2:3: ");
}

TEST_F(CliTest, UnreadableOnnxModelIsAnErrorNamingIt) {
  const std::string path = WriteModel("garbage.onnx", "this is not a protobuf");
  ExpectError(Run({"run", path}), path);
}

TEST_F(CliTest, RunCheckPrintsTheErrorsAndSucceeds) {
  const std::string path = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"run", path, "--check", "--seed", "0", "--backends", "reference", "--threads", "2"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("output0: Tensor[(2, 3), f32]  min="), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("output1: Tensor[(2, 3), f32]  min="), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("max abs error: 0, relative to the output's magnitude: 0\n"), std::string::npos) << result.out;
  EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST_F(CliTest, BundledExampleRunsWithCheck) {
  const CliResult result =
      Run({"run", std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir", "--check", "--seed", "0"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("output: Tensor[(1, 2, 2, 2), f32]"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("max abs error: 0, relative to the output's magnitude: 0"), std::string::npos) << result.out;
}

TEST_F(CliTest, InputsAndOutputsRoundTripThroughNpz) {
  const std::string model_path = WriteModel("m.cir", kTupleModel);
  const Tensor x = Tensor::FromVector<float>({1.0f, -2.0f, 3.0f, -4.0f, 5.0f, -6.0f}, {2, 3});
  const Tensor y = Tensor::FromVector<float>({0.5f, 0.25f, -1.0f}, {3});
  const std::string inputs_path = directory_.PathOf("in.npz");
  const std::string outputs_path = directory_.PathOf("out.npz");
  WriteNpz(inputs_path, {{"y", y}, {"x", x}});  // any order

  const CliResult result = Run({"run", model_path, "--inputs", inputs_path, "--outputs", outputs_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;

  const NamedTensors outputs = ReadNpz(outputs_path);
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].first, "output0");
  EXPECT_EQ(outputs[1].first, "output1");
  // x + y and relu(x * x), by hand.
  EXPECT_TRUE(
      outputs[0].second.BitwiseEqual(Tensor::FromVector<float>({1.5f, -1.75f, 2.0f, -3.5f, 5.25f, -7.0f}, {2, 3})));
  EXPECT_TRUE(
      outputs[1].second.BitwiseEqual(Tensor::FromVector<float>({1.0f, 4.0f, 9.0f, 16.0f, 25.0f, 36.0f}, {2, 3})));
  // And the same as the interpreter in this process.
  const Module module = ParseModule(kTupleModel, "m.cir");
  const std::vector<Tensor> expected = Evaluate(module.main(), {x, y}).Flatten();
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_TRUE(outputs[0].second.BitwiseEqual(expected[0]));
  EXPECT_TRUE(outputs[1].second.BitwiseEqual(expected[1]));
}

TEST_F(CliTest, SingleOutputIsNamedOutput) {
  const std::string model_path = WriteModel("m.cir", kSingleOutputModel);
  const std::string inputs_path = directory_.PathOf("in.npz");
  const std::string outputs_path = directory_.PathOf("out.npz");
  WriteNpz(inputs_path, {{"a", Tensor::FromVector<int32_t>({-3, 0, 2, 7}, {4})}});
  const CliResult result = Run({"run", model_path, "--inputs", inputs_path, "--outputs", outputs_path, "--check"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("output: Tensor[(4), i32]  min=0 max=49 mean=15.5\n"), std::string::npos) << result.out;
  const NamedTensors outputs = ReadNpz(outputs_path);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].first, "output");
  EXPECT_TRUE(outputs[0].second.BitwiseEqual(Tensor::FromVector<int32_t>({9, 0, 4, 49}, {4})));
}

TEST_F(CliTest, RandomInputsDependOnlyOnTheSeed) {
  const std::string model_path = WriteModel("m.cir", kTupleModel);
  const auto run_with_seed = [&](const std::string& seed, const std::string& name) {
    const std::string outputs_path = directory_.PathOf(name);
    EXPECT_EQ(Run({"run", model_path, "--seed", seed, "--outputs", outputs_path}).exit_code, 0);
    return ReadNpz(outputs_path);
  };
  const NamedTensors first = run_with_seed("7", "a.npz");
  const NamedTensors again = run_with_seed("7", "b.npz");
  const NamedTensors other = run_with_seed("8", "c.npz");
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(again.size(), 2u);
  ASSERT_EQ(other.size(), 2u);
  EXPECT_TRUE(first[0].second.BitwiseEqual(again[0].second));
  EXPECT_FALSE(first[0].second.BitwiseEqual(other[0].second));
  // The interpreter's RandomArguments with the same seed give the same outputs.
  const Module module = ParseModule(kTupleModel, "m.cir");
  const std::vector<Tensor> expected = Evaluate(module.main(), RandomArguments(module.main(), 7)).Flatten();
  EXPECT_TRUE(first[0].second.BitwiseEqual(expected[0]));
  EXPECT_TRUE(first[1].second.BitwiseEqual(expected[1]));
}

TEST_F(CliTest, BadInputArraysAreErrorsNamingTheParameter) {
  const std::string model_path = WriteModel("m.cir", kTupleModel);
  const std::string inputs_path = directory_.PathOf("in.npz");
  const Tensor x = Tensor::Zeros(DType::kF32, {2, 3});
  const Tensor y = Tensor::Zeros(DType::kF32, {3});
  const auto run_with = [&](const NamedTensors& arrays) {
    WriteNpz(inputs_path, arrays);
    return Run({"run", model_path, "--inputs", inputs_path});
  };
  ExpectError(run_with({{"x", x}}), inputs_path + ": no array for parameter 'y' (expected Tensor[(3), f32])");
  ExpectError(run_with({{"x", x}, {"y", y}, {"z", y}}),
              inputs_path + ": array 'z' matches no parameter of @main (parameters: x, y)");
  ExpectError(run_with({{"x", x}, {"y", Tensor::Zeros(DType::kI32, {3})}}),
              inputs_path + ": array 'y' is Tensor[(3), i32] but parameter 'y' expects Tensor[(3), f32]");
  ExpectError(run_with({{"x", Tensor::Zeros(DType::kF32, {3, 2})}, {"y", y}}),
              "array 'x' is Tensor[(3, 2), f32] but parameter 'x' expects Tensor[(2, 3), f32]");
  ExpectError(Run({"run", model_path, "--inputs", directory_.PathOf("missing.npz")}), "missing.npz");
  WriteFile(inputs_path, "not a zip file at all, but long enough to be searched");
  ExpectError(Run({"run", model_path, "--inputs", inputs_path}), inputs_path + ": not a zip archive");
}

TEST_F(CliTest, ImportPrintsParseableText) {
  const std::string model_path = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"import", model_path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(3), f32])", 0), 0u) << result.out;
  EXPECT_TRUE(StructuralEqual(ParseModule(result.out, "printed"), ParseModule(kTupleModel, "m.cir")));

  const std::string output_path = directory_.PathOf("printed.cir");
  const CliResult to_file = Run({"import", model_path, "-o", output_path});
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_TRUE(to_file.out.empty());
  EXPECT_EQ(ReadFile(output_path), result.out);
}

// run, partition and bench place the model after the standard passes: the batch
// norm is folded into the transposed convolution's weights and a bias, the dropout removed.
// import prints the model as loaded, and run --check compares with it.
TEST_F(CliTest, PlacementRunsTheStandardPassesFirst) {
  const std::string model = WriteModel("bn.cir", R"(def @main(%x: Tensor[(1, 2, 3, 3), f32]) {
  %w = constant([1.0, -0.5, 0.25, 2.0, 0.5, 1.5, -1.0, 0.75, 0.0, 1.0, 0.5, -2.0, 1.0, 0.25, -0.5, 1.0,
                 0.5, 0.5, -1.5, 2.0, 1.0, 0.0, 1.0, -0.25, 0.5, 1.0, 2.0, -1.0, 0.5, 0.25, 1.0, -0.5,
                 1.0, 0.5, 1.5, -2.0], Tensor[(2, 2, 3, 3), f32])
  %0 = nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1])
  %c = constant([1.5, 0.5], Tensor[(2), f32])
  %1 = nn.batch_norm(%0, %c, %c, constant([0.25, -1.0], Tensor[(2), f32]), %c)
  nn.dropout(nn.relu(%1))
}
)");
  const CliResult placed = Run({"partition", model, "--backends", "reference", "--cost", "analytic"});
  ASSERT_EQ(placed.exit_code, 0) << placed.err;
  EXPECT_NE(placed.out.find("3 ops (nn.conv2d_transpose+nn.bias_add+nn.relu)"), std::string::npos) << placed.out;
  EXPECT_EQ(placed.out.find("nn.batch_norm"), std::string::npos) << placed.out;
  const CliResult checked = Run({"run", model, "--backends", "native", "--check"});
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_NE(checked.out.find("max abs error: "), std::string::npos) << checked.out;
  const CliResult imported = Run({"import", model});
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("nn.batch_norm"), std::string::npos) << imported.out;
  EXPECT_NE(imported.out.find("nn.dropout"), std::string::npos) << imported.out;
}

TEST_F(CliTest, PartitionPrintsThePlacementAndTheExplainTable) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const CliResult result = Run({"partition", model, "--backends", "reference", "--cost", "analytic"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(result.err.empty()) << result.err;
  // Two single-exit partitions (the tuple stays on the host), their costs and the total.
  EXPECT_NE(result.out.find("\n  reference_0  reference  1 ops (add)  "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\n  reference_1  reference  2 ops (multiply+nn.relu)  "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\ntotal: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(" ms estimated, 2 partitions\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("#  backend    ops"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("best alternative (estimated ms, loss)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("reference(multiply) + reference(nn.relu): "), std::string::npos) << result.out;
}

// A chain deeper than one candidate may be: the op-level search places it in several touching
// partitions. Those of a backend that optimizes across ops (oneDNN keeps its blocked layouts
// inside one partition) are merged into one; a code generator's stay apart.
TEST_F(CliTest, PartitionMergesTouchingPartitionsOfBackendsThatOptimizeAcrossOps) {
  if (Run({"backends"}).out.find("\nonednn ") == std::string::npos) GTEST_SKIP() << "built without onednn";
  std::string body;
  std::string previous = "%x";
  for (int op = 0; op < 14; ++op) {
    body += "  %" + std::to_string(op) + " = " + (op % 2 == 0 ? "nn.relu" : "tanh") + "(" + previous + ")\n";
    previous = "%" + std::to_string(op);
  }
  const std::string model =
      WriteModel("chain.cir", "def @main(%x: Tensor[(1, 64, 8, 8), f32]) {\n" + body + "  " + previous + "\n}\n");
  const CliResult merged = Run({"partition", model, "--backends", "onednn", "--cost", "analytic"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_NE(merged.out.find("\n  onednn_0  onednn  14 ops "), std::string::npos) << merged.out;
  EXPECT_NE(merged.out.find(" ms estimated, 1 partitions\n"), std::string::npos) << merged.out;
  const CliResult apart = Run({"partition", model, "--backends", "native", "--cost", "analytic"});
  ASSERT_EQ(apart.exit_code, 0) << apart.err;
  EXPECT_NE(apart.out.find(" ms estimated, 3 partitions\n"), std::string::npos) << apart.out;
}

TEST_F(CliTest, PlanRoundTripsThroughRunAndRefusesAnotherModel) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string plan = directory_.PathOf("m.plan");
  const CliResult partitioned = Run({"partition", model, "--backends", "reference", "-o", plan});
  ASSERT_EQ(partitioned.exit_code, 0) << partitioned.err;
  const std::string text = ReadFile(plan);
  EXPECT_EQ(text.rfind("// collage plan 4\n// model: " + model + " ", 0), 0u) << text;
  EXPECT_NE(text.find("\n// backends: reference\n// cost: analytic\n// precision: fp32\n// partition: reference_0 "
                      "backend=reference layout=plain precision=f32 ops=1 estimated_ms="),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("attrs(Compiler=\"reference\", Primitive=1, global_symbol=\"reference_0\")"), std::string::npos)
      << text;

  const CliResult run = Run({"run", model, "--plan", plan, "--check", "--seed", "3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("max abs error: 0, relative to the output's magnitude: 0\n"), std::string::npos) << run.out;

  const std::string other = WriteModel("other.cir", kSingleOutputModel);
  const CliResult refused = Run({"run", other, "--plan", plan});
  ExpectError(refused, "plan '" + plan + "' was made for model '" + model + "' (hash ");
  EXPECT_NE(refused.err.find("not for model '" + other + "' (hash "), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());

  WriteFile(plan, "def @main() { 1f }\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":1: plan header: expected '// collage plan 4'");
  WriteFile(plan, "// collage plan 4\n// backends: reference\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":2: plan header: expected '// model: ...'");
  WriteFile(plan, text.substr(0, text.find("// partition: ")) + "// partition: reference_0 ops=x\n// total_ms: 1\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":6: plan header: malformed partition line 'reference_0 ops=x'");
}

// A tuning after one that stored every cost measures nothing, unless a cost was stored while the
// machine was busy and the machine is calmer now: the summary counts those, and only those may
// be measured again.
void ExpectMeasuredOnlyCostsOfABusierMachine(const std::string& summary) {
  std::smatch measured;
  ASSERT_TRUE(std::regex_search(summary, measured, std::regex(" ([0-9]+) measured \\(0 invalid\\)"))) << summary;
  std::smatch busier;
  const bool any_busier =
      std::regex_search(summary, busier, std::regex("; ([0-9]+) stored costs timed on a busier machine"));
  EXPECT_EQ(measured[1].str(), any_busier ? busier[1].str() : "0") << summary;
}

TEST_F(CliTest, PartitionWithMeasuredCostsTunesOnceThenReadsTheDatabase) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string database = directory_.PathOf("costs.sqlite");
  const std::string plan = directory_.PathOf("m.plan");
  const std::vector<std::string> partition = {"partition", model,      "--backends", "reference,native", "--cost",
                                              "measured",  "--db",     database,     "--threads",        "1",
                                              "-o",        plan};
  const CliResult cold = Run(partition);
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  EXPECT_NE(cold.out.find(" 0 from the database, "), std::string::npos) << cold.out;
  EXPECT_EQ(cold.out.find(" 0 measured"), std::string::npos) << cold.out;
  EXPECT_NE(cold.out.find("; cost database " + database + "\n"), std::string::npos) << cold.out;
  EXPECT_NE(cold.out.find("\ntransition penalty: layout conversions and hand-overs between backends, measured"), std::string::npos) << cold.out;
  EXPECT_NE(ReadFile(plan).find("\n// cost: measured\n"), std::string::npos);

  const CliResult warm = Run(partition);
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  ExpectMeasuredOnlyCostsOfABusierMachine(warm.out);
  EXPECT_EQ(warm.out.find(" 0 from the database, "), std::string::npos) << warm.out;

  const CliResult run = Run({"run", model, "--plan", plan, "--check"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
}

TEST_F(CliTest, GraphSearchEndsWithAnInterleavedMeasurementAndAPlanThatRuns) {
  if (Run({"backends"}).out.find("\nonednn ") == std::string::npos) GTEST_SKIP() << "built without onednn";
  const std::string model = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";
  const std::string plan = directory_.PathOf("conv_block.plan");
  const CliResult result = Run({"partition", model, "--backends", "onednn,native", "--cost", "measured", "--db",
                                directory_.PathOf("costs.sqlite"), "--threads", "1", "--search", "graph",
                                "--graph-budget", "2", "-o", plan});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("graph-level search offering regions to onednn: "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("\nfinal interleaved measurement: op-level "), std::string::npos) << result.out;
  const CliResult run = Run({"run", model, "--plan", plan, "--check"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

// `run --precision auto` places the model as `partition --cost measured --precision auto` does,
// says what the precision stage decided, and --check holds it to the requested tolerance.
TEST_F(CliTest, RunWithPrecisionAutoPlacesByTheSearch) {
  if (Run({"backends"}).out.find("\nonednn ") == std::string::npos) GTEST_SKIP() << "built without onednn";
  const std::string model = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";
  const CliResult result = Run({"run", model, "--backends", "onednn,native", "--precision", "auto", "--tolerance",
                                "0.05", "--db", directory_.PathOf("costs.sqlite"), "--threads", "1", "--check"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("precision auto: tolerance 0.05 rel-l2 against the all-f32 plan", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("output: Tensor[(1, 2, 2, 2), f32]"), std::string::npos) << result.out;
}

TEST_F(CliTest, BenchWithTheGraphStageMeasuresEveryVariantAndWritesTheContractJson) {
  if (Run({"backends"}).out.find("\nonednn ") == std::string::npos) GTEST_SKIP() << "built without onednn";
  const std::string model = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";
  const std::string json = directory_.PathOf("bench.json");
  const std::string plan = directory_.PathOf("bench.plan");
  const CliResult result =
      Run({"bench", model, "--backends", "onednn,native", "--db", directory_.PathOf("costs.sqlite"), "--threads", "1",
           "--search", "graph", "--graph-budget", "2", "--repeat", "3", "--json", json, "-o", plan});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\nplan written to " + plan + "\n"), std::string::npos) << result.out;
  // The plan is the graph stage's placement, and it runs.
  const CliResult run = Run({"run", model, "--plan", plan, "--check"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // The graph stage's decision is printed before the measurement, then every variant's row.
  const size_t decision = result.out.find("\nfinal interleaved measurement: op-level ");
  const size_t measuring = result.out.find("\nmeasuring 5 variants: 3 interleaved rounds");
  ASSERT_NE(decision, std::string::npos) << result.out;
  ASSERT_NE(measuring, std::string::npos) << result.out;
  EXPECT_LT(decision, measuring);
  for (const std::string variant : {"single:onednn", "single:native", "greedy", "collage", "collage-graph"}) {
    EXPECT_NE(result.out.find("\n" + variant + " "), std::string::npos) << variant << "\n" << result.out;
  }
  const std::string written = ReadFile(json);
  for (const std::string field : {"\"latency_ms\"", "\"collage-graph\"", "\"collage_vs_best_single\"",
                                  "\"collage_vs_greedy\"", "\"collage_graph_vs_collage\"", "\"spread_ms\"",
                                  "\"best_single\"", "\"additive_error\"", "\"collage_graph_additive_error\""}) {
    EXPECT_NE(written.find(field), std::string::npos) << field << "\n" << written;
  }
}

TEST_F(CliTest, TwoTunersSharingOneDatabaseBothFinish) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string database = directory_.PathOf("shared.sqlite");
  const std::string tune = Quote(CliPath()) + " partition " + Quote(model) +
                           " --backends reference,native --cost measured --threads 1 --db " + Quote(database);
  const std::string both = tune + " > " + Quote(directory_.PathOf("a.out")) + " 2>&1 & a=$!; " + tune + " > " +
                           Quote(directory_.PathOf("b.out")) + " 2>&1 & b=$!; wait $a; ra=$?; wait $b; rb=$?; " +
                           "test $ra -eq 0 -a $rb -eq 0";
  EXPECT_EQ(std::system(both.c_str()), 0) << ReadFile(directory_.PathOf("a.out")) << ReadFile(directory_.PathOf("b.out"));
  EXPECT_EQ(CostDatabase::Open(database).CheckIntegrity(), "ok");
  const CliResult warm = Run({"partition", model, "--backends", "reference,native", "--cost", "measured", "--threads",
                              "1", "--db", database});
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  ExpectMeasuredOnlyCostsOfABusierMachine(warm.out);
}

TEST_F(CliTest, BadPartitionOptionsAreUsageErrors) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  ExpectUsageError(Run({"partition", model, "--cost", "guess"}), "--cost expects analytic or measured, got 'guess'");
  ExpectUsageError(Run({"partition", model, "--db", "costs.db"}), "--db (the measured-cost database) needs --cost measured");
  ExpectUsageError(Run({"partition", model, "--search", "graph"}), "--search graph measures whole-model latency: it "
                                                                   "needs --cost measured");
  ExpectUsageError(Run({"partition", model, "--backends", "tvm"}), "unknown backend 'tvm'");
  ExpectUsageError(Run({"run", model, "--plan", "p", "--backends", "reference"}),
                   "--backends and --plan exclude each other");
}

TEST_F(CliTest, BadPrecisionOptionsAreUsageErrors) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  ExpectUsageError(Run({"partition", model, "--precision", "half"}), "--precision expects fp32 or auto, got 'half'");
  ExpectUsageError(Run({"partition", model, "--precision", "auto"}),
                   "--precision auto chooses precisions by measured cost: it needs --cost measured");
  ExpectUsageError(Run({"partition", model, "--precision", "auto", "--cost", "measured", "--tolerance", "x"}),
                   "--tolerance expects a number in (0, 1000000], got 'x'");
  ExpectUsageError(Run({"bench", model, "--precision", "auto", "--tolerance", "0"}),
                   "--tolerance expects a number in (0, 1000000], got '0'");
  ExpectUsageError(Run({"bench", model, "--precision", "auto", "--metric", "top5"}),
                   "--metric expects rel-l2, max-rel or top1, got 'top5'");
  ExpectUsageError(Run({"bench", model, "--tolerance", "0.1"}), "--tolerance applies to --precision auto");
  ExpectUsageError(Run({"bench", model, "--precision", "auto", "--calibration", "a.npz,"}), "--calibration");
  ExpectUsageError(Run({"run", model, "--tolerance", "0.1"}),
                   "--tolerance and --metric apply to --precision auto and to --check of a reduced-precision plan "
                   "(--plan)");
  ExpectUsageError(Run({"run", model, "--precision", "auto", "--plan", "p.plan"}),
                   "--precision and --plan exclude each other: the plan fixes each partition's precision");
  ExpectUsageError(Run({"run", model, "--calibration", "a.npz"}), "--calibration and --db apply to --precision auto");
  ExpectUsageError(Run({"run", model, "--precision", "half"}), "--precision expects fp32 or auto, got 'half'");
}

// A cost database with two onednn entries (one invalid) and one xnnpack entry.
std::string WriteCostDatabase(const std::string& path) {
  CostDatabase database = CostDatabase::Open(path);
  CostRecord record;
  record.seconds = 0.5;
  record.runs = 3;
  record.description = "onednn: nn.conv2d, 1x3x8x8";
  database.Store({"aa", "onednn", "3.0", "cpu", 1}, record);
  database.Store({"bb", "xnnpack", "1", "cpu", 1}, record);
  CostRecord failed;
  failed.valid = false;
  failed.reason = "timed out after 10 s";
  database.Store({"cc", "onednn", "3.0", "cpu", 1}, failed);
  return path;
}

TEST_F(CliTest, DbStatsShowsLocationSchemaAndCountsPerBackend) {
  const std::string path = WriteCostDatabase(directory_.PathOf("costs.sqlite"));
  const CliResult result = Run({"db", "stats", "--db", path});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  for (const std::string& expected :
       {"database        " + path + "\n", "schema          " + std::to_string(CostDatabase::kSchemaVersion) + "\n",
        std::string("entries         3 (1 invalid)\n"), std::string("  onednn        2\n"),
        std::string("  xnnpack       1\n")}) {
    EXPECT_NE(result.out.find(expected), std::string::npos) << expected << " in\n" << result.out;
  }
}

TEST_F(CliTest, DbExportWritesCsvToStdoutOrAFile) {
  const std::string path = WriteCostDatabase(directory_.PathOf("costs.sqlite"));
  const CliResult printed = Run({"db", "export", "--db", path});
  EXPECT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_EQ(CountLines(printed.out), 4) << printed.out;
  EXPECT_EQ(printed.out.rfind("candidate_hash,backend,backend_version,device,threads,valid,reason,seconds,", 0), 0u);
  EXPECT_NE(printed.out.find("\ncc,onednn,3.0,cpu,1,0,timed out after 10 s,"), std::string::npos) << printed.out;
  EXPECT_NE(printed.out.find(",\"onednn: nn.conv2d, 1x3x8x8\","), std::string::npos) << printed.out;

  const std::string csv = directory_.PathOf("costs.csv");
  const CliResult written = Run({"db", "export", "--db", path, "-o", csv});
  EXPECT_EQ(written.exit_code, 0) << written.err;
  EXPECT_TRUE(written.out.empty()) << written.out;
  EXPECT_EQ(ReadFile(csv), printed.out);
}

TEST_F(CliTest, DbClearRemovesEveryEntry) {
  const std::string path = WriteCostDatabase(directory_.PathOf("costs.sqlite"));
  const CliResult cleared = Run({"db", "clear", "--db", path});
  EXPECT_EQ(cleared.exit_code, 0) << cleared.err;
  EXPECT_EQ(cleared.out, "removed 3 entries and 0 device values from " + path + "\n");
  EXPECT_EQ(CostDatabase::Open(path).GetStats().entries, 0u);
  EXPECT_NE(Run({"db", "stats", "--db", path}).out.find("entries         0 (0 invalid)"), std::string::npos);
}

TEST_F(CliTest, DbUsesCollageCostDbByDefault) {
  const std::string path = WriteCostDatabase(directory_.PathOf("default.sqlite"));
  std::string command = "COLLAGE_COST_DB=" + Quote(path) + " " + Quote(CliPath()) + " db stats";
  command += " >" + Quote(directory_.PathOf("stdout.txt")) + " 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_NE(ReadFile(directory_.PathOf("stdout.txt")).find("entries         3"), std::string::npos);
}

TEST_F(CliTest, DbBadUsageAndBadFiles) {
  const std::string path = directory_.PathOf("costs.sqlite");
  ExpectUsageError(Run({"db", "vacuum", "--db", path}),
                   "unknown db subcommand 'vacuum' (expected stats, clear or export)");
  ExpectUsageError(Run({"db", "--db", path}), "missing SUBCOMMAND");
  ExpectUsageError(Run({"db", "stats", "--db", path, "-o", "x.csv"}), "--output is only for 'db export'");
  ExpectUsageError(Run({"db", "stats", "--db"}), "option --db needs a value");
  ExpectUsageError(Run({"db", "stats", "--db="}), "--db needs a non-empty PATH");
  const std::string text = WriteModel("not_a_database.sqlite", std::string(kTupleModel) + std::string(100, ' '));
  ExpectError(Run({"db", "stats", "--db", text}), "database '" + text + "'");
  ExpectError(Run({"db", "stats", "--db", text}), "file is not a database");
}

}  // namespace
}  // namespace collage
