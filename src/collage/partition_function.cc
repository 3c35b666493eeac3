#include "collage/partition_function.h"

#include <algorithm>
#include <unordered_map>

#include "backend/precision.h"
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
  return SubGraph(extracted_graph, std::move(inside), sub_graph.joined_label(), std::move(nested));
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

// A reduced-precision candidate's ranges (per non-constant input in index order, over the
// original graph) restated over the extracted graph, whose inputs are the extracted function's
// parameters: the original's non-constant inputs in index order.
SubGraph WithExtractedInputOrder(const SubGraph& local, const DataflowGraph& extracted_graph, const Function& extracted) {
  const Attrs* primitive = PrimitiveAttrs(local);
  if (primitive == nullptr || !primitive->Has(attr::kActivationRanges)) return local;
  const std::vector<double>& bounds = primitive->GetFloats(attr::kActivationRanges);
  std::vector<double> restated;
  for (size_t input : NonConstantInputs(extracted_graph, local)) {
    const ExprNode* param = extracted_graph.node(input).expr.get();
    const auto position = std::find_if(extracted->params.begin(), extracted->params.end(),
                                       [&](const Var& candidate) { return candidate.get() == param; });
    Check(position != extracted->params.end(), "ExtractPartitionFunction: an input is no parameter");
    const size_t i = static_cast<size_t>(position - extracted->params.begin());
    restated.push_back(bounds.at(2 * i));
    restated.push_back(bounds.at(2 * i + 1));
  }
  Attrs attrs = *primitive;
  attrs.Set(attr::kActivationRanges, std::move(restated));
  return WithPrimitiveAttrs(extracted_graph, local, std::move(attrs));
}

}  // namespace

Function ExtractPartitionFunction(const DataflowGraph& graph, const CandidatePartition& candidate) {
  if (PrimitiveAttrs(candidate.sub_graph()) == nullptr) return nullptr;
  std::unordered_map<size_t, Expr> inner_of;
  const Function extracted =
      candidate.sub_graph().Extract(graph, {.inline_constant_inputs = true, .inner_of = &inner_of});
  InferType(extracted);
  const DataflowGraph extracted_graph = DataflowGraph::Create(extracted->body);
  const CandidatePartition local(
      WithExtractedInputOrder(MapOntoExtracted(candidate.sub_graph(), extracted_graph, inner_of), extracted_graph, extracted),
      candidate.spec_name(), candidate.backend(), candidate.rule_name());
  NameSupply names;
  const Function outlined = OutlinePartitions(extracted, extracted_graph, {local}, names);
  return FindPrimitiveCallee(outlined->body);
}

}  // namespace collage
