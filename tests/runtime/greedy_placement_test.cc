#include "runtime/greedy_placement.h"

#include <gtest/gtest.h>

#include "backend/backend_test_util.h"
#include "ir/op_registry.h"
#include "ir/printer.h"
#include "ir/visitor.h"
#include "pattern/pattern.h"
#include "testing/subset_backend.h"

namespace collage {
namespace {

using testing::SubsetBackend;

constexpr const char* kModel = R"(
def @main(%x: Tensor[(2, 3), f32]) {
  %0 = add(%x, %x) : Tensor[(2, 3), f32]
  %1 = nn.relu(%0) : Tensor[(2, 3), f32]
  %2 = tanh(%1) : Tensor[(2, 3), f32]
  %3 = multiply(%2, %x) : Tensor[(2, 3), f32]
  %4 = nn.relu(%3) : Tensor[(2, 3), f32]
  negative(%4)
}
)";

// The Compiler attribute of every partition called by @main, in call order, with the ops in it.
std::vector<std::string> Placement(const Module& module) {
  std::vector<std::string> placement;
  for (const Expr& node : PostOrder(module.main()->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    if (call == nullptr) continue;
    if (call->op() != nullptr) {
      placement.push_back("host:" + call->op()->name);
      continue;
    }
    const auto* function = As<FunctionNode>(call->callee);
    std::string ops;
    for (const Expr& inner : PostOrder(call->callee)) {
      const auto* inner_call = As<CallNode>(inner);
      if (inner_call == nullptr) continue;
      if (inner_call->op() != nullptr) ops += (ops.empty() ? "" : ",") + inner_call->op()->name;
      const auto* composite = As<FunctionNode>(inner_call->callee);
      if (composite != nullptr) ops += (ops.empty() ? "[" : ",[") + composite->attrs.GetString(attr::kComposite) + "]";
    }
    placement.push_back(function->attrs.GetString(attr::kCompiler) + ":" + ops);
  }
  return placement;
}

struct Backends {
  BackendPtr relu = std::make_shared<SubsetBackend>("relu_lib", std::set<std::string>{"nn.relu"});
  BackendPtr codegen = std::make_shared<SubsetBackend>("codegen", std::set<std::string>{}, std::vector<BackendPattern>{},
                                                       /*runs_every_op=*/true, BackendKind::kCodeGenerator);
};

TEST(GreedyPlacementTest, ListedBackendWhereItCanFallbackElsewhere) {
  Backends backends;
  const Module placed = PlaceGreedy(Module(testing::ParseMainFunction(kModel)), {backends.relu}, backends.codegen);
  EXPECT_EQ(Placement(placed), (std::vector<std::string>{"codegen:add", "relu_lib:nn.relu", "codegen:tanh,multiply",
                                                         "relu_lib:nn.relu", "codegen:negative"}));
}

TEST(GreedyPlacementTest, ListedFallbackTakesEverythingAfterEarlierBackends) {
  Backends backends;
  const Module placed =
      PlaceGreedy(Module(testing::ParseMainFunction(kModel)), {backends.codegen, backends.relu}, backends.codegen);
  EXPECT_EQ(Placement(placed),
            (std::vector<std::string>{"codegen:add,nn.relu,tanh,multiply,nn.relu,negative"}));
}

TEST(GreedyPlacementTest, PatternTablesArePlacedAsComposites) {
  Backends backends;
  BackendPtr fused = std::make_shared<SubsetBackend>(
      "fused", std::set<std::string>{},
      std::vector<BackendPattern>{{"fused.multiply_relu", IsOp("nn.relu")(IsOp("multiply")(Wildcard(), Wildcard())), {}}});
  const Module placed =
      PlaceGreedy(Module(testing::ParseMainFunction(kModel)), {fused, backends.relu}, backends.codegen);
  EXPECT_EQ(Placement(placed), (std::vector<std::string>{"codegen:add", "relu_lib:nn.relu", "codegen:tanh",
                                                         "fused:multiply,nn.relu,[fused.multiply_relu]",
                                                         "codegen:negative"}));
}

TEST(GreedyPlacementTest, AlreadyPartitionedModuleIsKept) {
  Backends backends;
  const Module placed = PlaceGreedy(Module(testing::ParseMainFunction(kModel)), {backends.relu}, backends.codegen);
  const Module again = PlaceGreedy(placed, {backends.relu}, backends.codegen);
  EXPECT_EQ(PrintModule(again), PrintModule(placed));
}

TEST(GreedyPlacementTest, FallbackMustRunEveryOp) {
  Backends backends;
  try {
    PlaceGreedy(Module(testing::ParseMainFunction(kModel)), {}, backends.relu);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "backend 'relu_lib' cannot be the fallback: it does not run every op");
  }
}

TEST(UniversalFallbackTest, PrefersABackendThatIsNotTheInterpreter) {
  Backends backends;
  BackendRegistry registry;
  registry.Register(BackendRegistry::Global().Get("reference"));
  registry.Register(backends.relu);
  EXPECT_EQ(registry.UniversalFallback()->name(), "reference");
  registry.Register(backends.codegen);
  EXPECT_EQ(registry.UniversalFallback()->name(), "codegen");
}

TEST(UniversalFallbackTest, NoBackendRunningEveryOpIsAnError) {
  Backends backends;
  BackendRegistry registry;
  registry.Register(backends.relu);
  EXPECT_THROW(registry.UniversalFallback(), Error);
}

}  // namespace
}  // namespace collage
