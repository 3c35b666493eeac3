// End-to-end tests of the collage command-line tool (the fixture is in cli_fixture.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "cli/cli_fixture.h"
#include "interpreter/interpreter.h"
#include "io/npz.h"
#include "ir/parser.h"
#include "ir/structural_equal.h"

namespace collage {
namespace {

using testing::CliResult;
using testing::CliTest;

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
    for (const char* command : {"import", "partition", "run", "backends"}) {
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
         {"--seed S", "--check", "--inputs IN.npz", "--outputs OUT.npz", "--backends", "--threads N", "--profile"}) {
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
  ExpectUsageError(Run({"run", model, "--threads", "0"}), "--threads expects an integer in [1, 4096], got '0'");
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
  EXPECT_EQ(rows[0], (std::vector<std::string>{"name", "kind", "device", "patterns"})) << result.out;
  EXPECT_NE(std::find(rows.begin(), rows.end(), std::vector<std::string>{"reference", "interpreter", "cpu", "0"}),
            rows.end())
      << result.out;
  EXPECT_EQ(CountLines(result.out), 1 + static_cast<int>(BackendRegistry::Global().All().size()));
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
  EXPECT_NE(result.out.find("max abs error: 0, max rel error: 0\n"), std::string::npos) << result.out;
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
  EXPECT_NE(result.out.find("max abs error: 0, max rel error: 0\n"), std::string::npos) << result.out;
  EXPECT_TRUE(result.err.empty()) << result.err;
}

TEST_F(CliTest, BundledExampleRunsWithCheck) {
  const CliResult result =
      Run({"run", std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir", "--check", "--seed", "0"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("output: Tensor[(1, 2, 2, 2), f32]"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("max abs error: 0, max rel error: 0"), std::string::npos) << result.out;
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

TEST_F(CliTest, PlanRoundTripsThroughRunAndRefusesAnotherModel) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  const std::string plan = directory_.PathOf("m.plan");
  const CliResult partitioned = Run({"partition", model, "--backends", "reference", "-o", plan});
  ASSERT_EQ(partitioned.exit_code, 0) << partitioned.err;
  const std::string text = ReadFile(plan);
  EXPECT_EQ(text.rfind("// collage plan 1\n// model: " + model + " ", 0), 0u) << text;
  EXPECT_NE(text.find("\n// backends: reference\n// cost: analytic\n// partition: reference_0 backend=reference ops=1 "
                      "estimated_ms="),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("attrs(Compiler=\"reference\", Primitive=1, global_symbol=\"reference_0\")"), std::string::npos)
      << text;

  const CliResult run = Run({"run", model, "--plan", plan, "--check", "--seed", "3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("max abs error: 0, max rel error: 0\n"), std::string::npos) << run.out;

  const std::string other = WriteModel("other.cir", kSingleOutputModel);
  const CliResult refused = Run({"run", other, "--plan", plan});
  ExpectError(refused, "plan '" + plan + "' was made for model '" + model + "' (hash ");
  EXPECT_NE(refused.err.find("not for model '" + other + "' (hash "), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());

  WriteFile(plan, "def @main() { 1f }\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":1: plan header: expected '// collage plan 1'");
  WriteFile(plan, "// collage plan 1\n// backends: reference\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":2: plan header: expected '// model: ...'");
  WriteFile(plan, text.substr(0, text.find("// partition: ")) + "// partition: reference_0 ops=x\n// total_ms: 1\n");
  ExpectError(Run({"run", model, "--plan", plan}), plan + ":5: plan header: malformed partition line 'reference_0 ops=x'");
}

TEST_F(CliTest, PartitionOptionsNotAvailableYetAreUsageErrors) {
  const std::string model = WriteModel("m.cir", kTupleModel);
  ExpectUsageError(Run({"partition", model, "--cost", "measured"}), "--cost measured is not available yet");
  ExpectUsageError(Run({"partition", model, "--cost", "guess"}), "--cost expects analytic or measured, got 'guess'");
  ExpectUsageError(Run({"partition", model, "--db", "costs.db"}), "--db (the measured-cost database) needs --cost measured");
  ExpectUsageError(Run({"partition", model, "--search", "graph"}), "--search graph (the evolutionary graph-level search) "
                                                                   "is not available yet");
  ExpectUsageError(Run({"partition", model, "--backends", "tvm"}), "unknown backend 'tvm'");
  ExpectUsageError(Run({"run", model, "--plan", "p", "--backends", "reference"}),
                   "--backends and --plan exclude each other");
}

}  // namespace
}  // namespace collage
