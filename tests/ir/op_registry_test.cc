#include "ir/op_registry.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

// Every op the IR must provide, by its registered name.
const char* const kRequiredOps[] = {
    "nn.conv2d", "nn.conv2d_transpose", "nn.dense", "nn.matmul", "nn.batch_matmul", "nn.bias_add",
    "add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
    "nn.relu", "nn.leaky_relu", "sigmoid", "tanh", "nn.gelu", "erf", "exp", "log", "sqrt", "rsqrt", "clip", "abs",
    "negative", "nn.batch_norm", "nn.layer_norm", "nn.softmax", "nn.max_pool2d", "nn.avg_pool2d",
    "nn.global_avg_pool2d", "nn.adaptive_avg_pool2d", "reshape", "transpose", "flatten", "squeeze", "expand_dims",
    "concatenate", "split", "strided_slice", "take", "nn.pad", "cast", "where", "broadcast_to", "sum", "mean", "max",
    "image.resize2d"};

TEST(OpRegistryTest, EveryRequiredOpIsComplete) {
  for (const char* name : kRequiredOps) {
    const OpDef* op = OpRegistry::Global().Find(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_TRUE(static_cast<bool>(op->infer_type)) << name;
    EXPECT_TRUE(static_cast<bool>(op->reference_kernel)) << name;
    EXPECT_FALSE(op->description.empty()) << name;
    EXPECT_GE(op->min_args, 1) << name;
  }
}

TEST(OpRegistryTest, PatternKindsFollowFuseOps) {
  auto kind = [](const char* name) { return OpRegistry::Global().Get(name).pattern_kind; };
  EXPECT_EQ(kind("nn.relu"), OpPatternKind::kElemWise);
  EXPECT_EQ(kind("add"), OpPatternKind::kBroadcast);
  EXPECT_EQ(kind("transpose"), OpPatternKind::kInjective);
  EXPECT_EQ(kind("sum"), OpPatternKind::kCommReduce);
  EXPECT_EQ(kind("nn.conv2d"), OpPatternKind::kOutEWiseFusable);
}

TEST(OpRegistryTest, UnknownOpIsAnError) {
  EXPECT_EQ(OpRegistry::Global().Find("nn.conv3d"), nullptr);
  EXPECT_THROW(GetOp("nn.conv3d"), Error);
  EXPECT_THROW(CallOp("nn.conv3d", {}), Error);
}

TEST(OpRegistryTest, NormalizeAttrsFillsDefaultsAndChecksKinds) {
  const OpDef& conv = OpRegistry::Global().Get("nn.conv2d");
  Attrs normalized = NormalizeAttrs(conv, {{"strides", std::vector<int64_t>{2, 2}}});
  EXPECT_EQ(normalized.GetInts("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(normalized.GetInts("dilation"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(normalized.GetInt("groups"), 1);

  try {
    NormalizeAttrs(conv, {{"stride", std::vector<int64_t>{2, 2}}});
    FAIL();
  } catch (const TypeError& error) {
    EXPECT_NE(std::string(error.what()).find("nn.conv2d: unknown attribute 'stride'"), std::string::npos);
  }
  try {
    NormalizeAttrs(conv, {{"groups", std::string("two")}});
    FAIL();
  } catch (const TypeError& error) {
    EXPECT_NE(std::string(error.what()).find("attribute 'groups' must be of kind int"), std::string::npos) << error.what();
  }
  // An int where a float is declared is widened.
  Attrs leaky = NormalizeAttrs(OpRegistry::Global().Get("nn.leaky_relu"), {{"alpha", int64_t{1}}});
  EXPECT_EQ(KindOf(leaky.Get("alpha")), AttrKind::kFloat);
}

TEST(OpRegistryTest, MissingRequiredAttributeIsAnError) {
  EXPECT_THROW(NormalizeAttrs(OpRegistry::Global().Get("reshape"), {}), TypeError);
}

}  // namespace
}  // namespace collage
