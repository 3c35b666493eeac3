// Patterns written in the text syntax, matched on imported zoo models: exact match counts
// computed by hand from the architectures. The models come from models/export_zoo.py in
// $COLLAGE_CACHE_DIR/zoo (default ~/.cache/collage/zoo); a missing model is exported first when
// /usr/bin/python3 has torch, torchvision and onnx, and the test is skipped otherwise.
#include <gtest/gtest.h>

#include <cstdlib>

#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "pattern/pattern_matcher.h"
#include "pattern/pattern_parser.h"

namespace collage {
namespace {

std::filesystem::path ZooDir() {
  if (const char* cache = std::getenv("COLLAGE_CACHE_DIR"); cache != nullptr && *cache != '\0') {
    return std::filesystem::path(cache) / "zoo";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr ? home : "/tmp") / ".cache" / "collage" / "zoo";
}

// The path of DIR/<name>.onnx, exported first if needed; empty with `why` set when it cannot be.
std::filesystem::path ZooModel(const std::string& name, std::string* why) {
  const std::filesystem::path dir = ZooDir();
  const std::filesystem::path model = dir / (name + ".onnx");
  if (std::filesystem::exists(model)) return model;
  if (!testing::PythonHasModules("numpy onnx torch torchvision")) {
    *why = "zoo model " + name + " is not in " + dir.string() + " and /usr/bin/python3 cannot export it";
    return {};
  }
  std::filesystem::create_directories(dir);
  const std::filesystem::path script = std::filesystem::path(COLLAGE_SOURCE_DIR) / "models" / "export_zoo.py";
  const std::filesystem::path log = dir / (name + ".export.log");
  const int status = testing::RunShell(
      "/usr/bin/python3 '" + script.string() + "' --out '" + dir.string() + "' --models " + name, log);
  if (status != 0 || !std::filesystem::exists(model)) {
    *why = "exporting " + name + " failed; see " + log.string();
    return {};
  }
  return model;
}

struct ZooPatternCase {
  std::string name;
  std::string model;
  std::string table;  // the last entry is the pattern counted
  size_t expected_matches;
  size_t expected_inside_per_match;
};

class PatternZooTest : public ::testing::TestWithParam<ZooPatternCase> {};

TEST_P(PatternZooTest, PatternMatchesEveryInstance) {
  const ZooPatternCase& test_case = GetParam();
  std::string why;
  const std::filesystem::path path = ZooModel(test_case.model, &why);
  if (path.empty()) GTEST_SKIP() << why;
  const OnnxModel model = ImportOnnxFile(path.string());
  const std::vector<LabelledPattern> table = ParsePatternTable(test_case.table, test_case.name + ".pat");
  ASSERT_FALSE(table.empty());
  std::vector<PatternMatch> matches = FindAllMatches(table.back().pattern, model.module.main());
  EXPECT_EQ(matches.size(), test_case.expected_matches);
  for (const PatternMatch& match : matches) EXPECT_EQ(match.inside.size(), test_case.expected_inside_per_match);
}

// resnet50: 53 convolutions, each followed by a bias. conv + bias + relu are the stem and the
// first two convolutions of each of the 3 + 4 + 6 + 3 = 16 bottleneck blocks: 1 + 2 * 16 = 33.
// The third convolution of a block and the 4 downsampling ones go into the residual add.
// bert_encoder: 12 layers, each with one feed-forward dense + bias + GELU, exported by torch in
// its erf form: 0.5 * (x * (1 + erf(x / sqrt(2)))) with x = dense + bias, 7 calls per match.
INSTANTIATE_TEST_SUITE_P(
    ZooLarge, PatternZooTest,
    ::testing::Values(
        ZooPatternCase{"resnet50_conv2d_bias_relu", "resnet50",
                       "conv2d_bias_relu := nn.relu((nn.bias_add | add)(nn.conv2d(*, const), const))", 33, 3},
        ZooPatternCase{"bert_dense_bias_gelu", "bert_encoder",
                       "$dense_bias := add(nn.dense(*, const), const) | add(const, nn.dense(*, const))\n"
                       "dense_bias_gelu := multiply(multiply($dense_bias, add(erf(divide($dense_bias, const)), const)),"
                       " const)\n",
                       12, 7}),
    [](const ::testing::TestParamInfo<ZooPatternCase>& info) { return info.param.name; });

}  // namespace
}  // namespace collage
