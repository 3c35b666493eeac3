#include "collage/partition_function.h"

#include <unordered_map>

#include "collage/outline_partitions.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "support/error.h"

namespace collage {
namespace {

// `sub_graph` (over the original graph) restated over the extracted function's graph.
SubGraph MapOntoExtracted(const SubGraph& sub_graph, const DataflowGraph& extracted_graph,
                          const std::unordered_map<size_t, Expr>& inner_of) {
  IndexSet inside(extracted_graph.size());
  for (size_t index : sub_graph.inside().ToVector()) inside.Add(extracted_graph.IndexOf(inner_of.at(index).get()));
  std::vector<NestedSubGraph> nested;
  for (const NestedSubGraph& wrapping : sub_graph.nested()) {
    nested.push_back(NestedSubGraph{
        std::make_shared<const SubGraph>(MapOntoExtracted(*wrapping.sub_graph, extracted_graph, inner_of)),
        wrapping.attrs});
  }
  return SubGraph(extracted_graph, std::move(inside), sub_graph.label(), std::move(nested));
}

// The callee of the one call to a Primitive function in `body`.
Function FindPrimitiveCallee(const Expr& body) {
  for (const Expr& expr : PostOrder(body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(expr);
    if (call == nullptr) continue;
    if (const Function callee = Downcast<FunctionNode>(call->callee); callee && callee->attrs.Has(attr::kPrimitive)) {
      return callee;
    }
  }
  throw Error("ExtractPartitionFunction: outlining produced no Primitive function");
}

}  // namespace

Function ExtractPartitionFunction(const DataflowGraph& graph, const CandidatePartition& candidate) {
  if (PrimitiveAttrs(candidate.sub_graph()) == nullptr) return nullptr;
  std::unordered_map<size_t, Expr> inner_of;
  const Function extracted =
      candidate.sub_graph().Extract(graph, {.inline_constant_inputs = true, .inner_of = &inner_of});
  InferType(extracted);
  const DataflowGraph extracted_graph = DataflowGraph::Create(extracted->body);
  const CandidatePartition local(MapOntoExtracted(candidate.sub_graph(), extracted_graph, inner_of),
                                 candidate.spec_name(), candidate.backend(), candidate.rule_name());
  NameSupply names;
  const Function outlined = OutlinePartitions(extracted, extracted_graph, {local}, names);
  return FindPrimitiveCallee(outlined->body);
}

}  // namespace collage
