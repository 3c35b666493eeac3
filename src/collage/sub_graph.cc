#include "collage/sub_graph.h"

#include <algorithm>
#include <unordered_map>

#include "ir/type.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/post_dominator_tree.h"
#include "support/hash.h"

namespace collage {

SubGraph::SubGraph(const DataflowGraph& graph, IndexSet inside, std::string label, std::vector<NestedSubGraph> nested)
    : inside_(std::move(inside)),
      entry_(graph.size()),
      exit_(graph.size()),
      input_(graph.size()),
      output_(graph.size()),
      label_(std::move(label)),
      nested_(std::move(nested)) {
  Check(inside_.size() == graph.size(), "SubGraph: the inside set is not over this graph's nodes");
  std::unordered_map<size_t, size_t> depth_of;  // of the inside nodes
  first_inside_ = inside_.FirstInside().value_or(graph.size());
  for (size_t index : inside_.ToVector()) {
    const DataflowNode& node = graph.node(index);
    size_t depth = 0;
    for (size_t input : node.inputs) {
      if (inside_[input]) {
        depth = std::max(depth, depth_of.at(input));
      } else {
        entry_.Add(index);
        input_.Add(input);
      }
    }
    depth_of[index] = depth + 1;
    depth_ = std::max(depth_, depth + 1);
    if (node.external) exit_.Add(index);
    for (size_t output : node.outputs) {
      if (!inside_[output]) {
        exit_.Add(index);
        output_.Add(output);
      }
    }
    kind_ = CombinePattern(kind_, node.pattern);
  }
}

bool SubGraph::IsValid(const DataflowGraph& graph, const SubGraphConfig& config) const {
  if (inside_.IsEmpty()) return false;
  if (config.max_exits > 0 && exit_.Count() > config.max_exits) return false;
  if (config.max_depth > 0 && depth_ > config.max_depth) return false;
  if (!config.allow_taps) {
    for (size_t index : exit_.ToVector()) {
      for (size_t output : graph.node(index).outputs) {
        if (inside_[output]) return false;
      }
    }
  }
  // Every path that leaves the inside and comes back passes through an output node, and only
  // nodes before the last inside node (in post-DFS order) can lead back.
  const size_t last_inside = inside_.ToVector().back();
  std::vector<size_t> pending;
  IndexSet visited(graph.size());
  for (size_t output : output_.ToVector()) {
    if (output < last_inside) pending.push_back(output);
  }
  while (!pending.empty()) {
    const size_t node = pending.back();
    pending.pop_back();
    if (visited[node]) continue;
    visited.Add(node);
    for (size_t consumer : graph.node(node).outputs) {
      if (inside_[consumer]) return false;
      if (consumer < last_inside && !visited[consumer]) pending.push_back(consumer);
    }
  }
  return true;
}

bool SubGraph::Touches(const SubGraph& other) const {
  return output_.Intersects(other.inside_) || other.output_.Intersects(inside_);
}

namespace {

// The bytes of the tensor values in `values` (constants aside) whose bytes differ between
// layouts `first` and `second`.
double BytesChangedBetween(const DataflowGraph& graph, const IndexSet& values, Layout first, Layout second) {
  double bytes = 0;
  for (size_t value : values.ToVector()) {
    const Expr& expr = graph.node(value).expr;
    const TensorTypeNode* tensor = AsTensorType(expr->checked_type());
    if (tensor == nullptr || expr->kind() == ExprKind::kConstant) continue;
    if (!LayoutsShareBytes(tensor->shape, first, second)) bytes += TypeBytes(expr->checked_type());
  }
  return bytes;
}

}  // namespace

double SubGraph::InputBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const {
  return BytesChangedBetween(graph, input_, first, second);
}

double SubGraph::ExitBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const {
  return BytesChangedBetween(graph, exit_, first, second);
}

size_t SubGraph::ExitCountOfUnion(const DataflowGraph& graph, const SubGraph& other) const {
  size_t exits = 0;
  for (const SubGraph* side : {this, &other}) {
    for (size_t exit : side->exit_.ToVector()) {
      const DataflowNode& node = graph.node(exit);
      exits += node.external || std::any_of(node.outputs.begin(), node.outputs.end(), [&](size_t output) {
                 return !inside_[output] && !other.inside_[output];
               });
    }
  }
  return exits;
}

SubGraph SubGraph::DisjointUnion(const DataflowGraph& graph, const SubGraph& other) const {
  if (!inside_.AreDisjoint(other.inside_)) {
    throw Error("SubGraph: union of overlapping sub-graphs " + inside_.ToString() + " and " + other.inside_.ToString());
  }
  std::vector<NestedSubGraph> nested = nested_;
  nested.insert(nested.end(), other.nested_.begin(), other.nested_.end());
  const bool this_first = first_inside_ < other.first_inside_;
  std::string label = this_first ? label_ + "+" + other.label_ : other.label_ + "+" + label_;
  return SubGraph(graph, inside_ | other.inside_, std::move(label), std::move(nested));
}

SubGraph SubGraph::WithAttrs(const DataflowGraph& graph, Attrs attrs) const {
  return SubGraph(graph, inside_, label_, {NestedSubGraph{std::make_shared<const SubGraph>(*this), std::move(attrs)}});
}

SubGraph SubGraph::WithLabel(const DataflowGraph& graph, std::string label) const {
  return SubGraph(graph, inside_, std::move(label), nested_);
}

Function SubGraph::Extract(const DataflowGraph& graph, const ExtractOptions& options) const {
  std::unordered_map<size_t, Expr> inner;
  std::vector<Var> params;
  for (size_t input : input_.ToVector()) {
    const Expr& expr = graph.node(input).expr;
    if (options.inline_constant_inputs && expr->kind() == ExprKind::kConstant) {
      inner[input] = expr;
      continue;
    }
    Var param = MakeVar("p" + std::to_string(params.size()), expr->checked_type());
    params.push_back(param);
    inner[input] = param;
  }
  for (size_t index : inside_.ToVector()) {
    const Expr& expr = graph.node(index).expr;
    std::vector<Expr> children;
    ForEachChild(*expr, [&](const Expr& child) {
      auto it = graph.forward_graph().index_of.find(child.get());
      children.push_back(it == graph.forward_graph().index_of.end() ? child : inner.at(it->second));
    });
    inner[index] = WithChildren(expr, children);
  }
  std::vector<Expr> results;
  for (size_t exit : exit_.ToVector()) results.push_back(inner.at(exit));
  Function function = MakeFunction(params, results.size() == 1 ? results[0] : MakeTuple(results));
  if (options.inner_of) {
    for (size_t index : inside_.ToVector()) (*options.inner_of)[index] = inner.at(index);
  }
  return function;
}

bool SubGraph::operator==(const SubGraph& other) const {
  if (!(inside_ == other.inside_) || nested_.size() != other.nested_.size()) return false;
  for (size_t i = 0; i < nested_.size(); ++i) {
    if (!(nested_[i].attrs == other.nested_[i].attrs) || !(*nested_[i].sub_graph == *other.nested_[i].sub_graph)) {
      return false;
    }
  }
  return true;
}

size_t SubGraph::Hash() const {
  size_t hash = inside_.Hash();
  for (const NestedSubGraph& nested : nested_) {
    hash = HashCombine(HashCombine(hash, nested.attrs.Hash()), nested.sub_graph->Hash());
  }
  return hash;
}

std::string SubGraph::ToString() const {
  std::string text = inside_.ToString() + " kind=" + std::string(OpPatternKindName(kind_)) +
                     " depth=" + std::to_string(depth_) + " exits=" + exit_.ToString();
  if (!label_.empty()) text += " label=" + label_;
  for (const NestedSubGraph& nested : nested_) {
    text += " [" + nested.attrs.ToString() + " " + nested.sub_graph->ToString() + "]";
  }
  return text;
}

}  // namespace collage
