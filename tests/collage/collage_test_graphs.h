// Small graphs and specs shared by the Collage tests.
#pragma once

#include <set>
#include <string>

#include "declaration/support_declaration.h"
#include "collage/dataflow_graph.h"
#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "testing/graph_builders.h"

namespace collage::collage_testing {

// x -> relu, x -> tanh, add(relu, tanh): indices x=0 relu=1 tanh=2 add=3.
inline Function MakeDiamond() {
  Var x = MakeVar("x", testing::F32({2, 3}));
  return MakeFunction({x}, CallOp("add", {CallOp("nn.relu", {x}), CallOp("tanh", {x})}));
}

// x -> a=relu -> b=tanh(a) -> c=add(a, b): indices x=0 a=1 b=2 c=3.
inline Function MakeSkip() {
  Var x = MakeVar("x", testing::F32({2, 3}));
  Expr a = CallOp("nn.relu", {x});
  return MakeFunction({x}, CallOp("add", {a, CallOp("tanh", {a})}));
}

// x -> relu -> tanh -> exp: indices x=0, 1, 2, 3.
inline Function MakeUnaryChain() {
  Var x = MakeVar("x", testing::F32({2, 3}));
  return MakeFunction({x}, CallOp("exp", {CallOp("tanh", {CallOp("nn.relu", {x})})}));
}

inline DataflowGraph GraphOf(const Function& function) {
  InferType(function);
  return DataflowGraph::Create(function->body);
}

inline SupportDeclaration Declare(const std::string& backend, std::set<std::string> ops) {
  return SupportDeclaration{backend, [ops](const CallNode& call) { return ops.count(call.op()->name) > 0; }, {}, false};
}

}  // namespace collage::collage_testing
