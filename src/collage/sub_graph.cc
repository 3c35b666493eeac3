#include "collage/sub_graph.h"

#include <algorithm>
#include <unordered_map>

#include "ir/type.h"
#include "ir/visitor.h"
#include "pass/fuse_ops/post_dominator_tree.h"
#include "support/hash.h"

namespace collage {

SubGraph::SubGraph(const DataflowGraph& graph, IndexSet inside, JoinedLabel label, std::vector<NestedSubGraph> nested)
    : shape_(MakeShape(graph, std::move(inside))), label_(std::move(label)), nested_(std::move(nested)) {}

namespace {

// MakeShape's working lists, kept per thread between calls: the partitioner derives the shapes
// of millions of small sub-graphs, and allocating these lists each time cost more than
// deriving the shape.
struct ShapeScratch {
  std::vector<size_t> inside_nodes, depth_of, height_of, entry, exit, input, output;
};

ShapeScratch& ClearedShapeScratch() {
  thread_local ShapeScratch scratch;
  for (std::vector<size_t>* list : {&scratch.inside_nodes, &scratch.depth_of, &scratch.height_of, &scratch.entry,
                                    &scratch.exit, &scratch.input, &scratch.output}) {
    list->clear();
  }
  return scratch;
}

}  // namespace

std::shared_ptr<const SubGraph::Shape> SubGraph::MakeShape(const DataflowGraph& graph, IndexSet inside_set) {
  Check(inside_set.size() == graph.size(), "SubGraph: the inside set is not over this graph's nodes");
  auto shape = std::make_shared<Shape>();
  shape->inside = std::move(inside_set);
  const IndexSet& inside = shape->inside;
  ShapeScratch& scratch = ClearedShapeScratch();
  std::vector<size_t>& inside_nodes = scratch.inside_nodes;
  inside.ForEach([&](size_t index) { inside_nodes.push_back(index); });
  shape->first_inside = inside_nodes.empty() ? graph.size() : inside_nodes.front();
  shape->last_inside = inside_nodes.empty() ? graph.size() : inside_nodes.back();
  // Producers come before their consumers in post-DFS order, so each inside producer's depth is
  // known when its consumer is reached.
  std::vector<size_t>& depth_of = scratch.depth_of;
  depth_of.resize(inside_nodes.size());
  auto position_of = [&](size_t index, size_t before) {
    return static_cast<size_t>(std::lower_bound(inside_nodes.begin(), inside_nodes.begin() + before, index) -
                               inside_nodes.begin());
  };
  std::vector<size_t>& entry = scratch.entry;
  std::vector<size_t>& exit = scratch.exit;
  std::vector<size_t>& input = scratch.input;
  std::vector<size_t>& output = scratch.output;
  for (size_t position = 0; position < inside_nodes.size(); ++position) {
    const size_t index = inside_nodes[position];
    const DataflowNode& node = graph.node(index);
    size_t depth = 0;
    bool is_entry = false;
    for (size_t producer : node.inputs) {
      if (inside[producer]) {
        depth = std::max(depth, depth_of[position_of(producer, position)]);
      } else {
        is_entry = true;
        input.push_back(producer);
      }
    }
    depth_of[position] = depth + 1;
    shape->depth = std::max(shape->depth, depth + 1);
    if (is_entry) entry.push_back(index);
    bool is_exit = node.external;
    for (size_t consumer : node.outputs) {
      if (!inside[consumer]) {
        is_exit = true;
        output.push_back(consumer);
      }
    }
    if (is_exit) {
      exit.push_back(index);
      shape->least_exit_depth = exit.size() == 1 ? depth + 1 : std::min(shape->least_exit_depth, depth + 1);
    }
    shape->kind = CombinePattern(shape->kind, node.pattern);
  }
  // Heights (the longest inside path starting at a node), consumers first.
  std::vector<size_t>& height_of = scratch.height_of;
  height_of.resize(inside_nodes.size());
  bool any_entry = false;
  for (size_t position = inside_nodes.size(); position-- > 0;) {
    const DataflowNode& node = graph.node(inside_nodes[position]);
    size_t height = 0;
    bool is_entry = false;
    for (size_t consumer : node.outputs) {
      if (!inside[consumer]) continue;
      const size_t consumer_position = static_cast<size_t>(
          std::lower_bound(inside_nodes.begin() + position + 1, inside_nodes.end(), consumer) - inside_nodes.begin());
      height = std::max(height, height_of[consumer_position]);
    }
    height_of[position] = height + 1;
    for (size_t producer : node.inputs) is_entry = is_entry || !inside[producer];
    if (is_entry) {
      shape->least_entry_height = any_entry ? std::min(shape->least_entry_height, height + 1) : height + 1;
      any_entry = true;
    }
  }
  shape->entry = IndexSet(graph.size(), entry);
  shape->exit = IndexSet(graph.size(), exit);
  shape->input = IndexSet(graph.size(), input);
  shape->output = IndexSet(graph.size(), output);
  return shape;
}

bool SubGraph::IsValid(const DataflowGraph& graph, const SubGraphConfig& config) const {
  if (inside().IsEmpty()) return false;
  if (config.max_exits > 0 && exit().Count() > config.max_exits) return false;
  if (config.max_depth > 0 && depth() > config.max_depth) return false;
  if (!config.allow_taps) {
    bool tap = false;
    exit().ForEach([&](size_t index) {
      for (size_t output : graph.node(index).outputs) tap = tap || inside()[output];
    });
    if (tap) return false;
  }
  return IsConvex(graph, inside(), output(), shape_->last_inside);
}

bool IsConvex(const DataflowGraph& graph, const IndexSet& inside, const IndexSet& output, size_t last_inside) {
  // Every path that leaves the inside and comes back passes through an output node, and only
  // nodes before the last inside node (in post-DFS order) can lead back.
  std::vector<size_t> pending;
  IndexSet visited(graph.size());
  output.ForEach([&](size_t node) {
    if (node < last_inside) pending.push_back(node);
  });
  while (!pending.empty()) {
    const size_t node = pending.back();
    pending.pop_back();
    if (visited[node]) continue;
    visited.Add(node);
    for (size_t consumer : graph.node(node).outputs) {
      if (inside[consumer]) return false;
      if (consumer < last_inside && !visited[consumer]) pending.push_back(consumer);
    }
  }
  return true;
}

bool SubGraph::Touches(const SubGraph& other) const {
  return output().Intersects(other.inside()) || other.output().Intersects(inside());
}

double BytesChangedBetween(const DataflowGraph& graph, const IndexSet& values, Layout first, Layout second) {
  double bytes = 0;
  values.ForEach([&](size_t value) {
    const Expr& expr = graph.node(value).expr;
    const TensorTypeNode* tensor = AsTensorType(expr->checked_type());
    if (tensor == nullptr || expr->kind() == ExprKind::kConstant) return;
    if (!LayoutsShareBytes(tensor->shape, first, second)) bytes += TypeBytes(expr->checked_type());
  });
  return bytes;
}

double SubGraph::InputBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const {
  return BytesChangedBetween(graph, input(), first, second);
}

double SubGraph::ExitBytesChangedBetween(const DataflowGraph& graph, Layout first, Layout second) const {
  return BytesChangedBetween(graph, exit(), first, second);
}

size_t SubGraph::UnionDepthAtLeast(const SubGraph& downstream) const {
  return shape_->least_exit_depth + downstream.shape_->least_entry_height;
}

size_t SubGraph::ExitCountOfUnion(const DataflowGraph& graph, const SubGraph& other) const {
  size_t exits = 0;
  for (const SubGraph* side : {this, &other}) {
    side->exit().ForEach([&](size_t exit) {
      const DataflowNode& node = graph.node(exit);
      exits += node.external || std::any_of(node.outputs.begin(), node.outputs.end(), [&](size_t output) {
                 return !inside()[output] && !other.inside()[output];
               });
    });
  }
  return exits;
}

SubGraph SubGraph::DisjointUnion(const DataflowGraph& graph, const SubGraph& other) const {
  if (!inside().AreDisjoint(other.inside())) {
    throw Error("SubGraph: union of overlapping sub-graphs " + inside().ToString() + " and " + other.inside().ToString());
  }
  std::vector<NestedSubGraph> nested = nested_;
  nested.insert(nested.end(), other.nested_.begin(), other.nested_.end());
  const bool this_first = first_inside() < other.first_inside();
  JoinedLabel label = this_first ? JoinedLabel::Join(label_, other.label_) : JoinedLabel::Join(other.label_, label_);
  return SubGraph(graph, inside() | other.inside(), std::move(label), std::move(nested));
}

SubGraph SubGraph::WithAttrs(const DataflowGraph&, Attrs attrs) const {
  return Wrapping(std::make_shared<const SubGraph>(*this), std::make_shared<const Attrs>(std::move(attrs)));
}

SubGraph SubGraph::Wrapping(std::shared_ptr<const SubGraph> inner, std::shared_ptr<const Attrs> attrs) {
  SubGraph wrapped = *inner;
  wrapped.nested_ = {NestedSubGraph{std::move(inner), std::move(attrs)}};
  return wrapped;
}

SubGraph SubGraph::WithLabel(const DataflowGraph&, JoinedLabel label) const {
  SubGraph labelled = *this;
  labelled.label_ = std::move(label);
  return labelled;
}

Function SubGraph::Extract(const DataflowGraph& graph, const ExtractOptions& options) const {
  std::unordered_map<size_t, Expr> inner;
  std::vector<Var> params;
  for (size_t input : input().ToVector()) {
    const Expr& expr = graph.node(input).expr;
    if (options.inline_constant_inputs && expr->kind() == ExprKind::kConstant) {
      inner[input] = expr;
      continue;
    }
    Var param = MakeVar("p" + std::to_string(params.size()), expr->checked_type());
    params.push_back(param);
    inner[input] = param;
  }
  for (size_t index : inside().ToVector()) {
    const Expr& expr = graph.node(index).expr;
    std::vector<Expr> children;
    ForEachChild(*expr, [&](const Expr& child) {
      const size_t* child_index = graph.forward_graph().index_of.Find(child.get());
      children.push_back(child_index == nullptr ? child : inner.at(*child_index));
    });
    inner[index] = WithChildren(expr, children);
  }
  std::vector<Expr> results;
  for (size_t exit : exit().ToVector()) results.push_back(inner.at(exit));
  Function function = MakeFunction(params, results.size() == 1 ? results[0] : MakeTuple(results));
  if (options.inner_of) {
    for (size_t index : inside().ToVector()) (*options.inner_of)[index] = inner.at(index);
  }
  return function;
}

namespace {

bool SameNested(const NestedSubGraph& first, const NestedSubGraph& second) {
  return (first.attrs == second.attrs || *first.attrs == *second.attrs) &&
         (first.sub_graph == second.sub_graph || *first.sub_graph == *second.sub_graph);
}

}  // namespace

bool SubGraph::operator==(const SubGraph& other) const {
  if (!(inside() == other.inside()) || nested_.size() != other.nested_.size()) return false;
  for (size_t i = 0; i < nested_.size(); ++i) {
    if (!SameNested(nested_[i], other.nested_[i])) return false;
  }
  return true;
}

bool SubGraph::IsDisjointUnionOf(const IndexSet& union_inside, const SubGraph& first, const SubGraph& second) const {
  if (!(inside() == union_inside) || nested_.size() != first.nested_.size() + second.nested_.size()) return false;
  for (size_t i = 0; i < nested_.size(); ++i) {
    const NestedSubGraph& expected =
        i < first.nested_.size() ? first.nested_[i] : second.nested_[i - first.nested_.size()];
    if (!SameNested(nested_[i], expected)) return false;
  }
  return true;
}

size_t SubGraph::Hash() const {
  size_t hash = inside().Hash();
  for (const NestedSubGraph& nested : nested_) {
    hash = HashCombine(HashCombine(hash, nested.attrs->Hash()), nested.sub_graph->Hash());
  }
  return hash;
}

std::string SubGraph::ToString() const {
  std::string text = inside().ToString() + " kind=" + std::string(OpPatternKindName(kind())) +
                     " depth=" + std::to_string(depth()) + " exits=" + exit().ToString();
  if (!label_.empty()) text += " label=" + label_.ToString();
  for (const NestedSubGraph& nested : nested_) {
    text += " [" + nested.attrs->ToString() + " " + nested.sub_graph->ToString() + "]";
  }
  return text;
}

}  // namespace collage
