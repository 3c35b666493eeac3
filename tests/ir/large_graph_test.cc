// 10,000-node graphs through every layer that walks a graph: type inference, structural
// hashing, printing, parsing and the interpreter. None may recurse on graph depth.
#include <gtest/gtest.h>

#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "ir/printer.h"
#include "ir/structural_equal.h"
#include "ir/type_inference.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

constexpr int kChainLength = 10000;

TEST(LargeGraphTest, ChainOfTenThousandCalls) {
  Function chain = testing::MakeChain(kChainLength);
  EXPECT_EQ(TypeToString(AsFuncType(InferType(chain))->result), "Tensor[(2, 3), f32]");

  Module parsed = ParseModule(PrintModule(Module(chain)));
  EXPECT_TRUE(StructuralEqual(parsed.main(), chain));
  EXPECT_EQ(StructuralHash(parsed.main()), StructuralHash(chain));

  // relu then add x: after the first relu, values grow by x each pair; check one lane.
  Tensor x = Tensor::FromVector<float>({1, -1, 0.5f, 0, 2, -3}, {2, 3});
  Value result = Evaluate(chain, {x});
  // Lane 0: relu(1)=1, +1=2, relu=2, +1=3, ...: 1 + 5000 additions of 1.
  EXPECT_EQ(result.tensor().data<float>()[0], 1.0f + kChainLength / 2);
  // Lane 1: relu(-1)=0, +(-1)=-1, relu=0, ... ends with -1 after an add.
  EXPECT_EQ(result.tensor().data<float>()[1], -1.0f);
}

TEST(LargeGraphTest, DiamondLatticeOfTenThousandCalls) {
  // 1,250 layers x 4 nodes x 2 calls = 10,000 calls, each node used twice.
  Function lattice = testing::MakeDiamondLattice(1250, 4);
  InferType(lattice);
  Module parsed = ParseModule(PrintModule(Module(lattice)));
  EXPECT_TRUE(StructuralEqual(parsed.main(), lattice));

  // Each layer averages neighbours, so a constant input stays constant: 4 lanes sum to 4x.
  Tensor x = Tensor::FromVector<float>({2, 2, 2, 2}, {4});
  Value result = Evaluate(lattice, {x});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(result.tensor().data<float>()[i], 8.0f);
}

}  // namespace
}  // namespace collage
