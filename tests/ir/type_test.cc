// Types: spelling of deeply nested types, and tensor types whose size does not fit 64 bits.
#include "ir/type.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace collage {
namespace {

TEST(TypeTest, TypeToStringSpellsEveryKind) {
  const Type tensor = TensorType(DType::kF32, {1, 3});
  EXPECT_EQ(TypeToString(tensor), "Tensor[(1, 3), f32]");
  EXPECT_EQ(TypeToString(TupleType({})), "()");
  EXPECT_EQ(TypeToString(TupleType({tensor})), "(Tensor[(1, 3), f32],)");
  EXPECT_EQ(TypeToString(TupleType({tensor, TensorType(DType::kI64, {})})), "(Tensor[(1, 3), f32], Tensor[(), i64])");
  EXPECT_EQ(TypeToString(FuncType({tensor, tensor}, TupleType({tensor}))),
            "fn (Tensor[(1, 3), f32], Tensor[(1, 3), f32]) -> (Tensor[(1, 3), f32],)");
  EXPECT_EQ(TypeToString(FuncType({}, FuncType({TupleType({})}, nullptr))), "fn () -> fn (()) -> ?");
  EXPECT_EQ(TypeToString(nullptr), "?");
}

TEST(TypeTest, TypeToStringOfATupleNestedFiftyThousandDeep) {
  constexpr int kDepth = 50000;
  Type type = TensorType(DType::kF32, {2});
  for (int level = 0; level < kDepth; ++level) type = TupleType({type});
  const std::string text = TypeToString(type);
  EXPECT_EQ(text, std::string(kDepth, '(') + "Tensor[(2), f32]" + [&] {
    std::string closing;
    for (int level = 0; level < kDepth; ++level) closing += ",)";
    return closing;
  }());
}

TEST(TypeTest, TensorTypesLargerThan64BitsAreTypeErrors) {
  EXPECT_THROW(TensorType(DType::kF32, {int64_t{1} << 31, int64_t{1} << 31, 2}), TypeError);
  EXPECT_THROW(TensorType(DType::kF32, {int64_t{1} << 32, int64_t{1} << 32}), TypeError);
  EXPECT_THROW(TensorType(DType::kF32, {int64_t{1} << 61}), TypeError);
  EXPECT_NO_THROW(TensorType(DType::kI8, {int64_t{1} << 61}));
  EXPECT_NO_THROW(TensorType(DType::kF32, {int64_t{1} << 32, int64_t{1} << 32, 0}));
}

}  // namespace
}  // namespace collage
