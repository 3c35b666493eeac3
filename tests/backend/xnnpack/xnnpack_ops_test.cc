// Each op the xnnpack backend maps, alone, against the reference interpreter: odd sizes,
// padding (asymmetric too), strides, groups, dilation, broadcasting.
#ifdef COLLAGE_WITH_XNNPACK

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_test_graphs.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::xnnpack::Conv2D;
using testing::xnnpack::Conv2DParams;
using testing::xnnpack::F32;
using testing::xnnpack::RandomConstant;
using testing::xnnpack::TypedFunction;

// A function of one parameter %x of `shape` returning `make(x)`.
template <typename Make>
Function Unary(const Shape& shape, Make make) {
  Var x = MakeVar("x", F32(shape));
  return TypedFunction({x}, make(x));
}

struct ConvCase {
  const char* name;
  Shape input;
  Conv2DParams params;
};

class XnnpackConv2DTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(XnnpackConv2DTest, MatchesReference) {
  const ConvCase& c = GetParam();
  const Function function = Unary(c.input, [&](const Var& x) { return Conv2D(x, c.input[1], c.params, 7); });
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, XnnpackConv2DTest,
    ::testing::Values(ConvCase{"plain_3x3", {1, 3, 7, 9}, {5, {3, 3}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1}},
                      ConvCase{"padded_strided", {2, 3, 11, 8}, {6, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 1}},
                      ConvCase{"asymmetric_padding", {1, 4, 9, 7}, {3, {3, 2}, {2, 1}, {0, 1, 2, 0}, {1, 1}, 1}},
                      ConvCase{"dilated", {1, 2, 13, 11}, {4, {3, 3}, {1, 2}, {2, 2, 2, 2}, {2, 3}, 1}},
                      ConvCase{"grouped", {1, 6, 9, 9}, {9, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 3}},
                      ConvCase{"depthwise", {1, 7, 10, 9}, {7, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, 7}},
                      ConvCase{"depthwise_multiplier", {2, 3, 8, 7}, {6, {5, 3}, {1, 1}, {2, 1, 2, 1}, {1, 1}, 3}},
                      ConvCase{"pointwise", {1, 17, 5, 6}, {9, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1}}),
    [](const ::testing::TestParamInfo<ConvCase>& info) { return std::string(info.param.name); });

struct TransposedConvCase {
  const char* name;
  Shape input;
  Shape weight;  // in channels, out channels / groups, KH, KW
  Attrs attrs;
};

class XnnpackConv2DTransposeTest : public ::testing::TestWithParam<TransposedConvCase> {};

TEST_P(XnnpackConv2DTransposeTest, MatchesReference) {
  const TransposedConvCase& c = GetParam();
  const Function function = Unary(
      c.input, [&](const Var& x) { return CallOp("nn.conv2d_transpose", {x, RandomConstant(c.weight, 5)}, c.attrs); });
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

using Ints = std::vector<int64_t>;
INSTANTIATE_TEST_SUITE_P(
    Shapes, XnnpackConv2DTransposeTest,
    ::testing::Values(
        TransposedConvCase{"plain_3x3", {1, 3, 5, 4}, {3, 5, 3, 3}, {}},
        // DCGAN's layers: a 1x1 input to 4x4, then stride 2 with padding 1.
        TransposedConvCase{"dcgan_first", {1, 10, 1, 1}, {10, 8, 4, 4}, {}},
        TransposedConvCase{"dcgan_upsample", {1, 6, 4, 4}, {6, 3, 4, 4},
                           {{"strides", Ints{2, 2}}, {"padding", Ints{1, 1, 1, 1}}}},
        TransposedConvCase{"asymmetric_padding_output_padding", {2, 4, 5, 6}, {4, 2, 3, 2},
                           {{"strides", Ints{3, 2}}, {"padding", Ints{0, 1, 2, 0}}, {"output_padding", Ints{2, 1}}}},
        TransposedConvCase{"dilated", {1, 2, 6, 5}, {2, 3, 3, 3},
                           {{"dilation", Ints{2, 3}}, {"padding", Ints{1, 1, 1, 1}}}},
        TransposedConvCase{"grouped", {1, 6, 4, 5}, {6, 2, 3, 3}, {{"groups", int64_t{3}}, {"strides", Ints{2, 2}}}}),
    [](const ::testing::TestParamInfo<TransposedConvCase>& info) { return std::string(info.param.name); });

TEST(XnnpackOpsTest, Dense) {
  Var x = MakeVar("x", F32({3, 13}));
  EXPECT_TRUE(
      MatchesReference(XnnpackBackend(), TypedFunction({x}, CallOp("nn.dense", {x, RandomConstant({7, 13}, 3)}))));
}

TEST(XnnpackOpsTest, DenseOnThreeDimensionalData) {
  Var x = MakeVar("x", F32({2, 3, 5}));
  EXPECT_TRUE(
      MatchesReference(XnnpackBackend(), TypedFunction({x}, CallOp("nn.dense", {x, RandomConstant({4, 5}, 3)}))));
}

struct PoolCase {
  const char* name;
  const char* op;
  Shape input;
  Attrs attrs;
};

class XnnpackPoolTest : public ::testing::TestWithParam<PoolCase> {};

TEST_P(XnnpackPoolTest, MatchesReference) {
  const PoolCase& c = GetParam();
  const Function function = Unary(c.input, [&](const Var& x) { return CallOp(c.op, {x}, c.attrs); });
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), function));
}

using Ints = std::vector<int64_t>;

INSTANTIATE_TEST_SUITE_P(
    Windows, XnnpackPoolTest,
    ::testing::Values(
        PoolCase{"max_3x3_s2", "nn.max_pool2d", {1, 5, 11, 9}, {{"pool_size", Ints{3, 3}}, {"strides", Ints{2, 2}}}},
        PoolCase{"max_padded",
                 "nn.max_pool2d",
                 {2, 3, 8, 7},
                 {{"pool_size", Ints{3, 2}}, {"strides", Ints{2, 1}}, {"padding", Ints{1, 0, 1, 1}}}},
        PoolCase{"max_ceil_mode",
                 "nn.max_pool2d",
                 {1, 4, 10, 9},
                 {{"pool_size", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}}},
        PoolCase{"max_dilated", "nn.max_pool2d", {1, 2, 9, 9}, {{"pool_size", Ints{2, 2}}, {"dilation", Ints{2, 3}}}},
        PoolCase{"avg_2x2", "nn.avg_pool2d", {1, 6, 9, 8}, {{"pool_size", Ints{2, 2}}, {"strides", Ints{2, 2}}}},
        PoolCase{"avg_padded_exclusive",
                 "nn.avg_pool2d",
                 {1, 3, 7, 7},
                 {{"pool_size", Ints{3, 3}}, {"padding", Ints{1, 1, 1, 1}}}},
        PoolCase{
            "avg_strided_3x2", "nn.avg_pool2d", {2, 3, 9, 10}, {{"pool_size", Ints{3, 2}}, {"strides", Ints{3, 2}}}},
        PoolCase{"global_avg", "nn.global_avg_pool2d", {2, 7, 5, 3}, {}},
        PoolCase{"global_max", "nn.global_max_pool2d", {1, 5, 6, 7}, {}},
        PoolCase{"adaptive_avg_global", "nn.adaptive_avg_pool2d", {1, 4, 5, 7}, {{"output_size", Ints{1, 1}}}},
        PoolCase{"adaptive_avg_windows", "nn.adaptive_avg_pool2d", {2, 3, 6, 9}, {{"output_size", Ints{2, 3}}}}),
    [](const ::testing::TestParamInfo<PoolCase>& info) { return std::string(info.param.name); });

struct ElementwiseCase {
  const char* name;
  const char* op;
  Shape lhs;
  Shape rhs;
  bool rhs_constant;
};

class XnnpackBinaryTest : public ::testing::TestWithParam<ElementwiseCase> {};

TEST_P(XnnpackBinaryTest, MatchesReference) {
  const ElementwiseCase& c = GetParam();
  Var lhs = MakeVar("lhs", F32(c.lhs));
  if (c.rhs_constant) {
    EXPECT_TRUE(
        MatchesReference(XnnpackBackend(), TypedFunction({lhs}, CallOp(c.op, {lhs, RandomConstant(c.rhs, 5)}))));
  } else {
    Var rhs = MakeVar("rhs", F32(c.rhs));
    EXPECT_TRUE(MatchesReference(XnnpackBackend(), TypedFunction({lhs, rhs}, CallOp(c.op, {lhs, rhs}))));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Broadcasts, XnnpackBinaryTest,
    ::testing::Values(ElementwiseCase{"add_same", "add", {2, 3, 5, 7}, {2, 3, 5, 7}, false},
                      ElementwiseCase{"subtract_2d", "subtract", {5, 7}, {5, 7}, false},
                      ElementwiseCase{"multiply_channel_constant", "multiply", {1, 6, 5, 3}, {6, 1, 1}, true},
                      ElementwiseCase{"multiply_plane_constant", "multiply", {2, 3, 5, 4}, {3, 5, 1}, true},
                      ElementwiseCase{"add_scalar_constant", "add", {1, 3, 4, 5}, {}, true},
                      ElementwiseCase{"add_computed_channel_vector", "add", {2, 5, 3, 3}, {5, 1, 1}, false},
                      ElementwiseCase{"add_computed_row", "add", {1, 3, 4, 7}, {7}, false},
                      ElementwiseCase{"divide_by_constant", "divide", {3, 9}, {9}, true},
                      ElementwiseCase{"maximum", "maximum", {1, 4, 3, 5}, {1, 4, 3, 5}, false},
                      ElementwiseCase{"minimum_broadcast_batch", "minimum", {3, 2, 3, 3}, {1, 2, 3, 3}, false}),
    [](const ::testing::TestParamInfo<ElementwiseCase>& info) { return std::string(info.param.name); });

struct UnaryCase {
  const char* name;
  const char* op;
  Attrs attrs;
};

class XnnpackUnaryTest : public ::testing::TestWithParam<UnaryCase> {};

TEST_P(XnnpackUnaryTest, MatchesReferenceIn4DAnd2D) {
  const UnaryCase& c = GetParam();
  for (const Shape& shape : {Shape{2, 3, 5, 7}, Shape{3, 11}}) {
    const Function function = Unary(shape, [&](const Var& x) -> Expr {
      // sqrt needs non-negative inputs.
      if (std::string(c.op) == "sqrt") return CallOp(c.op, {CallOp("abs", {x})});
      return CallOp(c.op, {x}, c.attrs);
    });
    EXPECT_TRUE(MatchesReference(XnnpackBackend(), function)) << ShapeToString(shape);
  }
}

INSTANTIATE_TEST_SUITE_P(Activations, XnnpackUnaryTest,
                         ::testing::Values(UnaryCase{"relu", "nn.relu", {}},
                                           UnaryCase{"clip", "clip", {{"a_min", -0.25}, {"a_max", 0.5}}},
                                           UnaryCase{"leaky_relu", "nn.leaky_relu", {{"alpha", 0.2}}},
                                           UnaryCase{"sigmoid", "sigmoid", {}}, UnaryCase{"abs", "abs", {}},
                                           UnaryCase{"negative", "negative", {}}, UnaryCase{"floor", "floor", {}},
                                           UnaryCase{"ceil", "ceil", {}}, UnaryCase{"round", "round", {}},
                                           UnaryCase{"sqrt", "sqrt", {}}),
                         [](const ::testing::TestParamInfo<UnaryCase>& info) { return std::string(info.param.name); });

TEST(XnnpackOpsTest, BiasAddAlongChannels) {
  Var x = MakeVar("x", F32({2, 5, 3, 4}));
  EXPECT_TRUE(
      MatchesReference(XnnpackBackend(), TypedFunction({x}, CallOp("nn.bias_add", {x, RandomConstant({5}, 2)}))));
}

TEST(XnnpackOpsTest, BiasAddOfAComputedBias) {
  Var x = MakeVar("x", F32({2, 5, 3, 4}));
  Var bias = MakeVar("bias", F32({5}));
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), TypedFunction({x, bias}, CallOp("nn.bias_add", {x, bias}))));
}

TEST(XnnpackOpsTest, SoftmaxOverTheLastAxis) {
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), Unary({3, 10}, [](const Var& x) {
                                 return CallOp("nn.softmax", {x}, {{"axis", int64_t{-1}}});
                               })));
}

TEST(XnnpackOpsTest, SoftmaxOverChannelsOf4D) {
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), Unary({2, 6, 3, 5}, [](const Var& x) {
                                 return CallOp("nn.softmax", {x}, {{"axis", int64_t{1}}});
                               })));
}

TEST(XnnpackOpsTest, FlattenAfterGlobalPooling) {
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), Unary({2, 9, 5, 5}, [](const Var& x) {
                                 return CallOp("flatten", {CallOp("nn.global_avg_pool2d", {x})});
                               })));
}

TEST(XnnpackOpsTest, ConstantPadOfEveryAxis) {
  EXPECT_TRUE(MatchesReference(
      XnnpackBackend(), Unary({1, 3, 4, 5}, [](const Var& x) {
        return CallOp("nn.pad", {x}, {{"pad_width", Ints{0, 1, 2, 0, 1, 2, 1, 3}}, {"pad_value", 0.5}});
      })));
}

TEST(XnnpackOpsTest, ReshapeOf2D) {
  EXPECT_TRUE(MatchesReference(XnnpackBackend(), Unary({6, 10}, [](const Var& x) {
                                 return CallOp("reshape", {x}, {{"newshape", Ints{3, 20}}});
                               })));
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
