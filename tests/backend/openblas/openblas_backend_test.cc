// The openblas backend against the reference interpreter: every product op with odd sizes,
// transposes and broadcast batches, the fused bias (as ops and as a Composite from its
// pattern table), multi-output partitions, and the errors for what it cannot run.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/library_test_util.h"
#include "pattern/pattern_matcher.h"
#include "support/error.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

class OpenblasBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("openblas");
    if (!backend_) GTEST_SKIP() << "openblas is not built (libopenblas-dev missing)";
  }
  std::string CompileError(const Function& function) const { return testing::CompileError(*backend_, function); }
  BackendPtr backend_;
};

TEST_F(OpenblasBackendTest, DenseOnOddSizesWithConstantWeight) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(3, 7, 13), f32]) {
  %0 = constant(meta[0], Tensor[(5, 13), f32])
  nn.dense(%x, %0)
}
)",
                                                         {{5, 13}});
  EXPECT_TRUE(MatchesReference(*backend_, function));
  EXPECT_TRUE(MatchesReference(*backend_, function, 1, /*threads=*/1));
}

TEST_F(OpenblasBackendTest, DenseWithVariableWeight) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%x: Tensor[(1, 31), f32], %w: Tensor[(17, 31), f32]) {
  nn.dense(%x, %w)
}
)")));
}

TEST_F(OpenblasBackendTest, NumpyMatmulBroadcastsBatchesAndPromotesVectors) {
  for (const std::string signature : {
           "%a: Tensor[(9, 4), f32], %b: Tensor[(4, 6), f32]",
           "%a: Tensor[(2, 1, 3, 4), f32], %b: Tensor[(3, 4, 5), f32]",
           "%a: Tensor[(4), f32], %b: Tensor[(2, 4, 3), f32]",
           "%a: Tensor[(2, 3, 4), f32], %b: Tensor[(4), f32]",
       }) {
    EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction("def @main(" + signature + ") { nn.matmul(%a, %b) }")))
        << signature;
  }
}

TEST_F(OpenblasBackendTest, BatchMatmulWithAndWithoutTransposeAndBroadcastBatch) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%a: Tensor[(3, 5, 7), f32], %b: Tensor[(3, 6, 7), f32]) {
  nn.batch_matmul(%a, %b, transpose_b=1)
}
)")));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%a: Tensor[(1, 5, 7), f32], %b: Tensor[(4, 7, 2), f32]) {
  nn.batch_matmul(%a, %b, transpose_b=0)
}
)")));
}

TEST_F(OpenblasBackendTest, FusesBiasAddAndAddOfAColumnVector) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(6, 10), f32]) {
  %0 = constant(meta[0], Tensor[(3, 10), f32])
  %1 = nn.dense(%x, %0)
  %2 = constant(meta[1], Tensor[(3), f32])
  nn.bias_add(%1, %2, axis=-1)
}
)",
                                                                       {{3, 10}, {3}})));
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%a: Tensor[(2, 5, 4), f32], %b: Tensor[(2, 4, 3), f32]) {
  %0 = nn.matmul(%a, %b)
  %1 = constant(meta[0], Tensor[(1, 1, 3), f32])
  add(%1, %0)
}
)",
                                                                       {{1, 1, 3}})));
}

TEST_F(OpenblasBackendTest, RunsACompositeFromItsPatternTable) {
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(4, 8), f32]) {
  %0 = fn (%data: Tensor[(4, 8), f32], %weight: Tensor[(5, 8), f32]) attrs(Composite="openblas.product_bias") {
    %1 = nn.dense(%data, %weight)
    %2 = constant(meta[0], Tensor[(5), f32])
    nn.bias_add(%1, %2, axis=1)
  }
  %3 = constant(meta[1], Tensor[(5, 8), f32])
  %0(%x, %3)
}
)",
                                                                       {{5}, {5, 8}})));
}

TEST_F(OpenblasBackendTest, MultiOutputPartitionsAndPassThroughOutputs) {
  // %0 is both an output and an input of the second product; %x is returned as is.
  EXPECT_TRUE(MatchesReference(*backend_, ParseMainFunction(R"(
def @main(%x: Tensor[(3, 4), f32], %w: Tensor[(4, 4), f32]) {
  %0 = nn.dense(%x, %w)
  %1 = nn.dense(%0, %w)
  (%1, %0, %x, %0)
}
)")));
}

TEST_F(OpenblasBackendTest, PatternTableMatchesAProductWithItsBias) {
  const Function function = ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(2, 8), f32], %w: Tensor[(5, 8), f32]) {
  %0 = nn.dense(%x, %w)
  %1 = constant(meta[0], Tensor[(5), f32])
  add(%0, %1)
}
)",
                                                         {{5}});
  const SupportDeclaration support = backend_->Support();
  ASSERT_EQ(support.patterns.size(), 1u);
  EXPECT_EQ(support.patterns[0].label, "openblas.product_bias");
  EXPECT_EQ(FindAllMatches(support.patterns[0].pattern, function->body).size(), 1u);
  EXPECT_TRUE(support.supports_op(*As<CallNode>(As<CallNode>(function->body)->args[0])));
  EXPECT_FALSE(support.supports_op(*As<CallNode>(function->body)));
}

TEST_F(OpenblasBackendTest, UnsupportedOpsAndNonColumnBiasesAreErrors) {
  EXPECT_NE(CompileError(ParseMainFunction(R"(
def @main(%x: Tensor[(3, 4), f32], %w: Tensor[(2, 4), f32]) {
  %0 = nn.dense(%x, %w)
  nn.relu(%0)
}
)")).find("openblas: op nn.relu is not supported"),
            std::string::npos);
  // A full-matrix constant is not a bias: the add stays an unsupported op.
  EXPECT_NE(CompileError(ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(3, 4), f32], %w: Tensor[(2, 4), f32]) {
  %0 = nn.dense(%x, %w)
  %1 = constant(meta[0], Tensor[(3, 2), f32])
  add(%0, %1)
}
)",
                                                      {{3, 2}}))
                .find("openblas: op add is not supported"),
            std::string::npos);
}

}  // namespace
}  // namespace collage
