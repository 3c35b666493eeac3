// Tests of the data-movement ops (src/op/transform.cc): hand-computed results on odd shapes
// and several dtypes, ONNX slicing and gathering semantics, and type-relation errors.
#include <gtest/gtest.h>

#include <limits>

#include "op/op_test_util.h"

namespace collage {
namespace {

using op_test::Bool;
using op_test::EvaluateOp;
using op_test::EvaluateOpToTensor;
using op_test::F32;
using op_test::I32;
using op_test::I64;
using op_test::InferOpType;
using op_test::InferTypeError;
using op_test::MessageHas;
using op_test::TensorIs;

using Ints = std::vector<int64_t>;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

Type F32Type(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

// The result shape of `op` on one f32 argument of `shape`.
Shape ShapeOf(const std::string& op, Shape shape, const Attrs& attrs) {
  const Type type = InferOpType(op, {F32Type(std::move(shape))}, attrs);
  const TensorTypeNode* result = AsTensorType(type);
  return result == nullptr ? Shape{-1} : result->shape;
}

TEST(TransformTest, PatternKinds) {
  auto kind = [](const char* name) { return OpRegistry::Global().Get(name).pattern_kind; };
  for (const char* name : {"reshape", "transpose", "flatten", "squeeze", "expand_dims", "concatenate", "split",
                           "strided_slice", "take"}) {
    EXPECT_EQ(kind(name), OpPatternKind::kInjective) << name;
  }
  EXPECT_EQ(kind("broadcast_to"), OpPatternKind::kBroadcast);
  EXPECT_EQ(kind("copy"), OpPatternKind::kElemWise);
}

TEST(TransformTest, ReshapeInfersOneDimension) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("reshape", {data}, {{"newshape", Ints{3, -1}}}), DType::kF32, {3, 2},
                       {1, 2, 3, 4, 5, 6}));
  Tensor flags = EvaluateOpToTensor("reshape", {Bool({true, false, true}, {3, 1})}, {{"newshape", Ints{-1}}});
  EXPECT_TRUE(TensorIs(flags, DType::kBool, {3}, {1, 0, 1}));
}

TEST(TransformTest, ReshapeErrors) {
  const Type matrix = F32Type({2, 3});
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}, {{"newshape", Ints{0, 6}}}),
                         {"reshape: ", "cannot reshape data (2, 3) (6 elements) to (0, 6) (0 elements)"}));
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}, {{"newshape", Ints{-1, -1}}}),
                         {"reshape: ", "more than one -1"}));
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}, {{"newshape", Ints{4, 2}}}),
                         {"reshape: ", "to (4, 2) (8 elements)"}));
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}, {{"newshape", Ints{4, -1}}}),
                         {"reshape: ", "-1 dimension cannot be inferred"}));
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}, {{"newshape", Ints{-2, -3}}}),
                         {"reshape: ", "negative dimension -2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("reshape", {matrix}), {"reshape: ", "missing required attribute 'newshape'"}));
}

TEST(TransformTest, TransposeReversesByDefault) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("transpose", {I64({1, 2, 3, 4, 5, 6}, {2, 3})}), DType::kI64, {3, 2},
                       {1, 4, 2, 5, 3, 6}));
}

TEST(TransformTest, TransposeWithGivenAxes) {
  // Element (a, b, c) of the input is 6a + 2b + c; output (i, j, k) is input (j, k, i).
  Tensor data = F32({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {2, 3, 2});
  const std::vector<double> expected = {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("transpose", {data}, {{"axes", Ints{2, 0, 1}}}), DType::kF32, {2, 2, 3},
                       expected));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("transpose", {data}, {{"axes", Ints{-1, 0, 1}}}), DType::kF32, {2, 2, 3},
                       expected));
}

TEST(TransformTest, TransposeErrors) {
  const Type cube = F32Type({2, 3, 2});
  EXPECT_TRUE(MessageHas(InferTypeError("transpose", {cube}, {{"axes", Ints{0, 0, 1}}}),
                         {"transpose: ", "attribute axes names dimension 0 twice"}));
  EXPECT_TRUE(MessageHas(InferTypeError("transpose", {cube}, {{"axes", Ints{0, 1}}}),
                         {"transpose: ", "attribute axes has 2 entries but data has rank 3"}));
  EXPECT_TRUE(MessageHas(InferTypeError("transpose", {cube}, {{"axes", Ints{0, 1, 3}}}),
                         {"transpose: ", "axis 3 is out of range for rank 3"}));
}

TEST(TransformTest, FlattenFollowsOnnx) {
  EXPECT_EQ(ShapeOf("flatten", {2, 3, 4}, {}), (Shape{2, 12}));
  EXPECT_EQ(ShapeOf("flatten", {2, 3, 4}, {{"axis", int64_t{0}}}), (Shape{1, 24}));
  EXPECT_EQ(ShapeOf("flatten", {2, 3, 4}, {{"axis", int64_t{-1}}}), (Shape{6, 4}));
  EXPECT_EQ(ShapeOf("flatten", {2, 3, 4}, {{"axis", int64_t{3}}}), (Shape{24, 1}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("flatten", {F32({1, 2, 3, 4, 5, 6}, {2, 3, 1})}, {{"axis", int64_t{2}}}),
                       DType::kF32, {6, 1}, {1, 2, 3, 4, 5, 6}));
}

TEST(TransformTest, FlattenAxisOutOfRange) {
  EXPECT_TRUE(MessageHas(InferTypeError("flatten", {F32Type({2, 3, 4})}, {{"axis", int64_t{4}}}),
                         {"flatten: ", "axis 4 is out of range", "(expected -3 to 3)"}));
  EXPECT_TRUE(MessageHas(InferTypeError("flatten", {F32Type({2, 3, 4})}, {{"axis", int64_t{-4}}}),
                         {"flatten: ", "axis -4 is out of range"}));
}

TEST(TransformTest, SqueezeAllOrGivenAxes) {
  EXPECT_EQ(ShapeOf("squeeze", {1, 3, 1, 2}, {}), (Shape{3, 2}));
  EXPECT_EQ(ShapeOf("squeeze", {1, 3, 1, 2}, {{"axes", Ints{0}}}), (Shape{3, 1, 2}));
  EXPECT_EQ(ShapeOf("squeeze", {1, 3, 1, 2}, {{"axes", Ints{-2}}}), (Shape{1, 3, 2}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("squeeze", {I32({7, 8, 9}, {1, 3, 1})}), DType::kI32, {3}, {7, 8, 9}));
}

TEST(TransformTest, SqueezeErrors) {
  const Type data = F32Type({1, 3, 1, 2});
  EXPECT_TRUE(MessageHas(InferTypeError("squeeze", {data}, {{"axes", Ints{1}}}),
                         {"squeeze: ", "cannot squeeze dimension 1 of data (1, 3, 1, 2): its extent is 3"}));
  EXPECT_TRUE(MessageHas(InferTypeError("squeeze", {data}, {{"axes", Ints{0, -4}}}),
                         {"squeeze: ", "names dimension 0 twice"}));
}

TEST(TransformTest, ExpandDimsCountsAxesInTheOutput) {
  EXPECT_EQ(ShapeOf("expand_dims", {2, 3}, {{"axes", Ints{0, 3}}}), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(ShapeOf("expand_dims", {2, 3}, {{"axes", Ints{-1}}}), (Shape{2, 3, 1}));
  EXPECT_EQ(ShapeOf("expand_dims", {2, 3}, {{"axes", Ints{1}}}), (Shape{2, 1, 3}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("expand_dims", {F32({4, 5}, {2})}, {{"axes", Ints{0}}}), DType::kF32, {1, 2},
                       {4, 5}));
}

TEST(TransformTest, ExpandDimsErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("expand_dims", {F32Type({2, 3})}, {{"axes", Ints{3}}}),
                         {"expand_dims: ", "axis 3 is out of range for rank 3"}));
  EXPECT_TRUE(MessageHas(InferTypeError("expand_dims", {F32Type({2, 3})}, {{"axes", Ints{1, -3}}}),
                         {"expand_dims: ", "names dimension 1 twice"}));
  EXPECT_TRUE(MessageHas(InferTypeError("expand_dims", {F32Type({2, 3})}), {"missing required attribute 'axes'"}));
}

TEST(TransformTest, ConcatenateAlongInnerAxis) {
  Tensor a = F32({1, 2}, {2, 1});
  Tensor b = F32({3, 4, 5, 6, 7, 8}, {2, 3});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("concatenate", {a, b}, {{"axis", int64_t{1}}}), DType::kF32, {2, 4},
                       {1, 3, 4, 5, 2, 6, 7, 8}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("concatenate", {a, b}, {{"axis", int64_t{-1}}}), DType::kF32, {2, 4},
                       {1, 3, 4, 5, 2, 6, 7, 8}));
}

TEST(TransformTest, ConcatenateThreeAlongAxisZero) {
  Tensor a = I64({1, 2}, {1, 2});
  Tensor b = I64({3, 4, 5, 6}, {2, 2});
  Tensor c = I64({7, 8}, {1, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("concatenate", {a, b, c}), DType::kI64, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("concatenate", {a}), DType::kI64, {1, 2}, {1, 2}));
}

TEST(TransformTest, ConcatenateErrors) {
  const Attrs inner = {{"axis", int64_t{1}}};
  EXPECT_TRUE(MessageHas(InferTypeError("concatenate", {F32Type({2, 1}), F32Type({3, 3})}, inner),
                         {"concatenate: ", "tensors[1] has extent 3 in dimension 0 but tensors[0] has 2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("concatenate", {F32Type({2, 1}), TensorType(DType::kI32, {2, 1})}, inner),
                         {"concatenate: ", "tensors[0] is f32 but tensors[1] is i32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("concatenate", {F32Type({2, 1}), F32Type({2})}, inner),
                         {"concatenate: ", "tensors[1] must have rank 2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("concatenate", {}), {"concatenate: ", "expected at least 1 arguments, got 0"}));
}

TEST(TransformTest, SplitAlongInnerAxis) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {2, 3});
  const Attrs attrs = {{"sizes", Ints{1, 2}}, {"axis", int64_t{1}}};
  const Type type = InferOpType("split", {F32Type({2, 3})}, attrs);
  EXPECT_TRUE(TypeEqual(type, TupleType({F32Type({2, 1}), F32Type({2, 2})})));
  std::vector<Tensor> pieces = EvaluateOp("split", {data}, attrs);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_TRUE(TensorIs(pieces[0], DType::kF32, {2, 1}, {1, 4}));
  EXPECT_TRUE(TensorIs(pieces[1], DType::kF32, {2, 2}, {2, 3, 5, 6}));
}

TEST(TransformTest, SplitAlongAxisZero) {
  std::vector<Tensor> pieces = EvaluateOp("split", {I32({1, 2, 3, 4, 5, 6}, {3, 2})}, {{"sizes", Ints{2, 0, 1}}});
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_TRUE(TensorIs(pieces[0], DType::kI32, {2, 2}, {1, 2, 3, 4}));
  EXPECT_TRUE(TensorIs(pieces[1], DType::kI32, {0, 2}, {}));
  EXPECT_TRUE(TensorIs(pieces[2], DType::kI32, {1, 2}, {5, 6}));
}

TEST(TransformTest, SplitErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("split", {F32Type({2, 3})}, {{"sizes", Ints{1, 1}}, {"axis", int64_t{1}}}),
                         {"split: ", "sums to 2 but dimension 1 of data (2, 3) has extent 3"}));
  EXPECT_TRUE(MessageHas(InferTypeError("split", {F32Type({2, 3})}, {{"sizes", Ints{3, -1}}, {"axis", int64_t{1}}}),
                         {"split: ", "negative size"}));
}

Tensor Slice(const Tensor& data, Ints begin, Ints end, Ints strides = {}, Ints axes = {}) {
  return EvaluateOpToTensor("strided_slice", {data}, {{"begin", std::move(begin)}, {"end", std::move(end)},
                                                      {"strides", std::move(strides)}, {"axes", std::move(axes)}});
}

TEST(TransformTest, StridedSliceForward) {
  Tensor data = F32({0, 1, 2, 3, 4}, {5});
  EXPECT_TRUE(TensorIs(Slice(data, {1}, {kInt64Max}), DType::kF32, {4}, {1, 2, 3, 4}));
  EXPECT_TRUE(TensorIs(Slice(data, {-3}, {-1}), DType::kF32, {2}, {2, 3}));
  EXPECT_TRUE(TensorIs(Slice(data, {0}, {5}, {2}), DType::kF32, {3}, {0, 2, 4}));
  EXPECT_TRUE(TensorIs(Slice(data, {-100}, {100}), DType::kF32, {5}, {0, 1, 2, 3, 4}));
  EXPECT_TRUE(TensorIs(Slice(data, {3}, {1}), DType::kF32, {0}, {}));
}

TEST(TransformTest, StridedSliceBackward) {
  Tensor data = I64({0, 1, 2, 3, 4}, {5});
  EXPECT_TRUE(TensorIs(Slice(data, {-1}, {kInt64Min}, {-1}), DType::kI64, {5}, {4, 3, 2, 1, 0}));
  EXPECT_TRUE(TensorIs(Slice(data, {4}, {0}, {-2}), DType::kI64, {2}, {4, 2}));
  EXPECT_TRUE(TensorIs(Slice(data, {kInt64Max}, {-4}, {-1}), DType::kI64, {3}, {4, 3, 2}));
}

TEST(TransformTest, StridedSliceOnChosenAxes) {
  Tensor data = F32({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  EXPECT_TRUE(TensorIs(Slice(data, {1}, {3}, {}, {1}), DType::kF32, {3, 2}, {1, 2, 5, 6, 9, 10}));
  EXPECT_TRUE(TensorIs(Slice(data, {2, 1}, {0, 4}, {-1, 2}), DType::kF32, {2, 2}, {9, 11, 5, 7}));
  EXPECT_TRUE(TensorIs(Slice(data, {1}, {kInt64Max}, {2}, {-2}), DType::kF32, {1, 4}, {4, 5, 6, 7}));
}

TEST(TransformTest, StridedSliceErrors) {
  const Type data = F32Type({3, 4});
  auto error = [&](Ints begin, Ints end, Ints strides, Ints axes) {
    return InferTypeError("strided_slice", {data}, {{"begin", begin}, {"end", end}, {"strides", strides}, {"axes", axes}});
  };
  EXPECT_TRUE(MessageHas(error({0}, {2}, {0}, {}), {"strided_slice: ", "zero stride"}));
  EXPECT_TRUE(MessageHas(error({0, 0}, {2}, {}, {}), {"strided_slice: ", "attribute end has 1 entries but begin has 2"}));
  EXPECT_TRUE(MessageHas(error({0, 0}, {1, 1}, {}, {1, -1}), {"strided_slice: ", "names dimension 1 twice"}));
  EXPECT_TRUE(MessageHas(error({0}, {1}, {}, {2}), {"strided_slice: ", "axis 2 is out of range for rank 2"}));
}

TEST(TransformTest, TakeAlongAxisZeroWithMatrixIndices) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {3, 2});
  Tensor indices = I64({0, 2, -1, 1}, {2, 2});
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("take", {data, indices}), DType::kF32, {2, 2, 2}, {1, 2, 5, 6, 5, 6, 3, 4}));
}

TEST(TransformTest, TakeAlongInnerAxis) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {3, 2});
  const Attrs inner = {{"axis", int64_t{1}}};
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("take", {data, I32({1}, {1})}, inner), DType::kF32, {3, 1}, {2, 4, 6}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("take", {data, I32({-2}, {})}, inner), DType::kF32, {3}, {1, 3, 5}));
}

TEST(TransformTest, TakeOutOfRangeIndexIsARunTimeError) {
  Tensor data = F32({1, 2, 3, 4, 5, 6}, {3, 2});
  try {
    EvaluateOp("take", {data, I64({0, 3}, {2})});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_TRUE(MessageHas(error.what(), {"take: index 3 is out of range for axis 0 of extent 3"}));
  }
  EXPECT_THROW(EvaluateOp("take", {data, I64({-4}, {1})}), Error);
}

TEST(TransformTest, TakeRelationErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("take", {F32Type({3, 2}), F32Type({2})}),
                         {"take: ", "indices must be i32 or i64, got f32"}));
  EXPECT_TRUE(MessageHas(InferTypeError("take", {F32Type({3, 2}), TensorType(DType::kI64, {2})}, {{"axis", int64_t{2}}}),
                         {"take: ", "axis 2 is out of range for rank 2"}));
}

TEST(TransformTest, BroadcastToRepeatsAlongNewAndUnitDimensions) {
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("broadcast_to", {F32({1, 2, 3}, {3, 1})}, {{"shape", Ints{2, 3, 4}}}),
                       DType::kF32, {2, 3, 4},
                       {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}));
  EXPECT_TRUE(TensorIs(EvaluateOpToTensor("broadcast_to", {I32({7}, {})}, {{"shape", Ints{2, 2}}}), DType::kI32, {2, 2},
                       {7, 7, 7, 7}));
}

TEST(TransformTest, BroadcastToErrors) {
  EXPECT_TRUE(MessageHas(InferTypeError("broadcast_to", {F32Type({3})}, {{"shape", Ints{2}}}),
                         {"broadcast_to: ", "cannot broadcast data (3) to (2)", "expected 1 or 2"}));
  EXPECT_TRUE(MessageHas(InferTypeError("broadcast_to", {F32Type({2, 3})}, {{"shape", Ints{3}}}),
                         {"broadcast_to: ", "lower-rank"}));
  EXPECT_TRUE(MessageHas(InferTypeError("broadcast_to", {F32Type({3})}, {{"shape", Ints{-1, 3}}}),
                         {"broadcast_to: ", "negative dimension"}));
}

TEST(TransformTest, CopyReturnsAFreshBuffer) {
  Tensor data = Bool({true, false, true}, {3, 1});
  Tensor copy = EvaluateOpToTensor("copy", {data});
  EXPECT_TRUE(copy.BitwiseEqual(data));
  EXPECT_NE(copy.raw_data(), data.raw_data());
}

}  // namespace
}  // namespace collage
