// Patterns written in the text syntax, matched on imported zoo models: exact match counts
// computed by hand from the architectures. The models come from models/export_zoo.py in
// $COLLAGE_CACHE_DIR/zoo (default ~/.cache/collage/zoo); a missing model is exported first when
// /usr/bin/python3 has torch, torchvision and onnx, and the test is skipped otherwise.
#include <gtest/gtest.h>

#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_test_support.h"
#include "pattern/pattern_matcher.h"
#include "pattern/pattern_parser.h"

namespace collage {
namespace {

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
  const std::filesystem::path dir = testing::ZooCacheDir();
  if (const std::string why = testing::EnsureZooModelExported(dir, test_case.model); !why.empty()) GTEST_SKIP() << why;
  const OnnxModel model = ImportOnnxFile((dir / (test_case.model + ".onnx")).string());
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
