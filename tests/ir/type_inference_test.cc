#include "ir/type_inference.h"

#include <gtest/gtest.h>

#include "testing/graph_builders.h"

namespace collage {
namespace {

using testing::F32;

std::string TypeErrorOf(const Expr& expr) {
  try {
    InferType(expr);
  } catch (const TypeError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(TypeInferenceTest, TypesEveryNode) {
  Function function = testing::MakeConvBiasRelu();
  Type type = InferType(function);
  const FuncTypeNode* func_type = AsFuncType(type);
  ASSERT_NE(func_type, nullptr);
  EXPECT_EQ(TypeToString(func_type->result), "Tensor[(1, 4, 6, 5), f32]");
  EXPECT_TRUE(TypeEqual(function->body->checked_type(), F32({1, 4, 6, 5})));
}

TEST(TypeInferenceTest, ARewriteTypesItsNewNodesOnly) {
  Var x = MakeVar("x", F32({4}));
  Expr relu = CallOp("nn.relu", {x});
  InferType(relu);
  const TypeNode* relu_type = relu->checked_type().get();
  Expr add = CallOp("add", {relu, CallOp("tanh", {relu})});
  EXPECT_TRUE(TypeEqual(InferType(add), F32({4})));
  EXPECT_TRUE(TypeEqual(add->checked_type(), F32({4})));
  EXPECT_EQ(relu->checked_type().get(), relu_type);  // kept, not inferred again
}

TEST(TypeInferenceTest, TuplesAndProjections) {
  Var x = MakeVar("x", F32({2}));
  Var y = MakeVar("y", TensorType(DType::kI64, {3}));
  Expr tuple = MakeTuple({x, y});
  Function function = MakeFunction({x, y}, MakeTupleGetItem(tuple, 1));
  InferType(function);
  EXPECT_EQ(TypeToString(tuple->checked_type()), "(Tensor[(2), f32], Tensor[(3), i64])");
  EXPECT_EQ(TypeToString(function->body->checked_type()), "Tensor[(3), i64]");
}

TEST(TypeInferenceTest, ProjectionOutOfRangeIsAnError) {
  Var x = MakeVar("x", F32({2}));
  Function function = MakeFunction({x}, MakeTupleGetItem(MakeTuple({x}), 1));
  EXPECT_NE(TypeErrorOf(function).find("tuple projection .1 out of range for a tuple of 1 fields"), std::string::npos);
}

TEST(TypeInferenceTest, ErrorsNameTheOpAndLocation) {
  Var x = MakeVar("x", F32({2, 3}));
  Var y = MakeVar("y", F32({4, 3}));
  Call add = CallOp("add", {x, y});
  add->set_location({"model.cir", 4, 9});
  std::string message = TypeErrorOf(MakeFunction({x, y}, add));
  EXPECT_EQ(message.rfind("model.cir:4:9: add: ", 0), 0u) << message;
  EXPECT_NE(message.find("broadcast"), std::string::npos) << message;
}

TEST(TypeInferenceTest, WrongArityIsAnError) {
  Var x = MakeVar("x", F32({2}));
  Call call = MakeCall(GetOp("add"), {x});
  EXPECT_NE(TypeErrorOf(MakeFunction({x}, call)).find("add: expected 2 arguments, got 1"), std::string::npos);
}

TEST(TypeInferenceTest, UnknownAttributeIsAnError) {
  Var x = MakeVar("x", F32({2}));
  Call call = MakeCall(GetOp("nn.relu"), {x}, {{"alpha", 1.0}});
  std::string message = TypeErrorOf(MakeFunction({x}, call));
  EXPECT_NE(message.find("nn.relu: unknown attribute 'alpha'"), std::string::npos) << message;
}

TEST(TypeInferenceTest, FunctionCallsCheckArgumentTypes) {
  Var p = MakeVar("p", F32({2}));
  Function inner = MakeFunction({p}, CallOp("nn.relu", {p}));
  Var x = MakeVar("x", F32({3}));
  std::string message = TypeErrorOf(MakeFunction({x}, MakeCall(inner, {x})));
  EXPECT_NE(message.find("argument 0 (%p) expects Tensor[(2), f32], got Tensor[(3), f32]"), std::string::npos)
      << message;

  Var z = MakeVar("z", F32({2}));
  Function ok = MakeFunction({z}, MakeCall(inner, {z}));
  EXPECT_EQ(TypeToString(AsFuncType(InferType(ok))->result), "Tensor[(2), f32]");
}

TEST(TypeInferenceTest, VariablesNeedAnnotations) {
  Var x = MakeVar("x", nullptr);
  EXPECT_NE(TypeErrorOf(MakeFunction({x}, CallOp("nn.relu", {x}))).find("variable %x has no type annotation"),
            std::string::npos);
}

// Tuples built through bindings can nest without bound in the text; the run time builds tuple
// values recursively, so nesting is capped where the parser caps a written type.
TEST(TypeInferenceTest, TuplesNestedDeeperThanTheLimitAreAnError) {
  Var x = MakeVar("x", F32({2}));
  Expr nested = x;
  for (int level = 0; level < 50000; ++level) {
    nested = MakeTuple({nested});
    nested->set_location({"deep.cir", level + 2, 8});
  }
  EXPECT_EQ(TypeErrorOf(MakeFunction({x}, nested)), "deep.cir:258:8: tuple nested deeper than 256 levels");

  Expr at_limit = x;
  for (int level = 0; level < 256; ++level) at_limit = MakeTuple({at_limit});
  EXPECT_EQ(TypeErrorOf(MakeFunction({x}, at_limit)), "(no error)");
}

TEST(TypeInferenceTest, TupleNestingOfSharedFieldsIsCheckedOncePerDepth) {
  Var x = MakeVar("x", F32({2}));
  Expr doubling = x;
  for (int level = 0; level < 200; ++level) doubling = MakeTuple({doubling, doubling});
  EXPECT_EQ(TypeErrorOf(MakeFunction({x}, doubling)), "(no error)");
}

}  // namespace
}  // namespace collage
