#include "pass/byoc/partition_greedy.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "testing/graph_builders.h"
#include "testing/random_graphs.h"

namespace collage {
namespace {

using testing::F32;

SupportDeclaration Declare(const std::string& backend, std::set<std::string> ops) {
  return SupportDeclaration{backend, [ops](const CallNode& call) { return ops.count(call.op()->name) > 0; }, {}, false};
}

struct Partition {
  std::string backend;
  std::string symbol;
  std::vector<std::string> ops;
};

// The Compiler functions called by the body, in call order.
std::vector<Partition> Partitions(const Function& function) {
  std::vector<Partition> partitions;
  for (const Expr& node : PostOrder(function->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* callee = call ? As<FunctionNode>(call->callee) : nullptr;
    if (callee == nullptr || !callee->attrs.Has(attr::kCompiler)) continue;
    Partition partition{callee->attrs.GetString(attr::kCompiler), callee->attrs.GetString(attr::kGlobalSymbol), {}};
    for (const Expr& inner : PostOrder(callee->body)) {
      if (const auto* op_call = As<CallNode>(inner); op_call && op_call->op()) partition.ops.push_back(op_call->op()->name);
    }
    partitions.push_back(partition);
  }
  return partitions;
}

void ExpectSameOutputs(const Function& original, const Function& partitioned, uint64_t seed) {
  std::vector<Value> args = RandomArguments(original, seed);
  std::vector<Tensor> expected = Evaluate(original, args).Flatten();
  std::vector<Tensor> actual = Evaluate(partitioned, args).Flatten();
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t t = 0; t < expected.size(); ++t) EXPECT_TRUE(expected[t].BitwiseEqual(actual[t]));
}

TEST(PartitionGreedyTest, FirstBackendInPriorityOrderWins) {
  Var x = MakeVar("x", F32({2, 3}));
  Function function = MakeFunction({x}, CallOp("exp", {CallOp("nn.relu", {x})}));
  Function partitioned =
      PartitionGreedy({Declare("a", {"nn.relu"}), Declare("b", {"nn.relu", "exp"})})(Module(function)).main();
  std::vector<Partition> partitions = Partitions(partitioned);
  ASSERT_EQ(partitions.size(), 2u);
  EXPECT_EQ(partitions[0].backend, "a");
  EXPECT_EQ(partitions[1].backend, "b");
  EXPECT_NE(partitions[0].symbol, partitions[1].symbol);
  ExpectSameOutputs(function, partitioned, 1);
}

TEST(PartitionGreedyTest, AdjacentCallsOfOneBackendMerge) {
  Function function = testing::MakeConvBiasRelu();
  Function partitioned = PartitionFor(Declare("lib", {"nn.conv2d", "nn.bias_add", "nn.relu"}))(Module(function)).main();
  std::vector<Partition> partitions = Partitions(partitioned);
  ASSERT_EQ(partitions.size(), 1u);
  EXPECT_EQ(partitions[0].ops, (std::vector<std::string>{"nn.conv2d", "nn.bias_add", "nn.relu"}));
  EXPECT_EQ(partitions[0].symbol, "lib_0");
  // Weights stay inside the partition as constants: the function takes only x.
  const auto* call = As<CallNode>(partitioned->body);
  EXPECT_EQ(call->args.size(), 1u);
  ExpectSameOutputs(function, partitioned, 2);
}

TEST(PartitionGreedyTest, UnsupportedOpsStayOnTheHost) {
  Var x = MakeVar("x", F32({2, 3}));
  Function function = MakeFunction({x}, CallOp("nn.relu", {CallOp("exp", {CallOp("nn.relu", {x})})}));
  Function partitioned = PartitionFor(Declare("lib", {"nn.relu"}))(Module(function)).main();
  EXPECT_EQ(Partitions(partitioned).size(), 2u);
  int host_exp = 0;
  for (const Expr& node : PostOrder(partitioned->body, false)) {
    if (const auto* call = As<CallNode>(node); call && call->op() && call->op()->name == "exp") ++host_exp;
  }
  EXPECT_EQ(host_exp, 1);
}

TEST(PartitionGreedyTest, MergingThatWouldCreateACycleIsRefused) {
  // relu -> exp (other backend) -> add, and relu -> add directly: relu and add both run on
  // "lib", but merging them would make the region feed exp and consume its result.
  Var x = MakeVar("x", F32({2, 3}));
  Expr relu = CallOp("nn.relu", {x});
  Function function = MakeFunction({x}, CallOp("add", {relu, CallOp("exp", {relu})}));
  Function partitioned =
      PartitionGreedy({Declare("lib", {"nn.relu", "add"}), Declare("other", {"exp"})})(Module(function)).main();
  std::vector<Partition> partitions = Partitions(partitioned);
  ASSERT_EQ(partitions.size(), 3u);
  EXPECT_EQ(partitions[0].ops, std::vector<std::string>{"nn.relu"});
  EXPECT_EQ(partitions[2].ops, std::vector<std::string>{"add"});
  ExpectSameOutputs(function, partitioned, 3);
}

TEST(PartitionGreedyTest, MultiOutputRegionsReturnTuples) {
  // relu and exp both run on lib and both feed the host op "negative" and the result.
  Var x = MakeVar("x", F32({2, 3}));
  Expr relu = CallOp("nn.relu", {x});
  Expr exp = CallOp("exp", {relu});
  Function function = MakeFunction({x}, MakeTuple({CallOp("negative", {relu}), exp}));
  Function partitioned = PartitionFor(Declare("lib", {"nn.relu", "exp"}))(Module(function)).main();
  std::vector<Partition> partitions = Partitions(partitioned);
  ASSERT_EQ(partitions.size(), 1u);
  EXPECT_EQ(partitions[0].ops.size(), 2u);
  ExpectSameOutputs(function, partitioned, 4);
}

// 1,000 random DAGs with random backend menus: partitioning always yields an acyclic,
// well-typed module (outlining would throw otherwise) with the same outputs, and every
// partition holds only ops its backend declared.
TEST(PartitionGreedyTest, RandomDagsStayAcyclicAndKeepOutputs) {
  std::mt19937_64 random(2024);
  std::vector<std::string> all_ops = testing::RandomGraphUnaryOps();
  for (const std::string& op : testing::RandomGraphBinaryOps()) all_ops.push_back(op);
  int total_partitions = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    std::vector<SupportDeclaration> backends;
    std::map<std::string, std::set<std::string>> declared;
    for (const char* name : {"a", "b", "c"}) {
      std::set<std::string> ops;
      for (const std::string& op : all_ops) {
        if (random() % 2) ops.insert(op);
      }
      declared[name] = ops;
      backends.push_back(Declare(name, ops));
    }
    Function function = testing::MakeRandomDag(static_cast<uint64_t>(trial), 4 + trial % 20);
    Function partitioned;
    ASSERT_NO_THROW(partitioned = PartitionGreedy(backends)(Module(function)).main()) << "trial " << trial;
    for (const Partition& partition : Partitions(partitioned)) {
      ++total_partitions;
      for (const std::string& op : partition.ops) EXPECT_TRUE(declared[partition.backend].count(op)) << op;
    }
    ExpectSameOutputs(function, partitioned, static_cast<uint64_t>(trial));
    if (HasFailure()) FAIL() << "trial " << trial;
  }
  EXPECT_GT(total_partitions, 1000);
}

}  // namespace
}  // namespace collage
