#include "pattern/pattern_matcher.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "pattern/attr_constraint.h"
#include "support/pointer_map.h"

namespace collage {
namespace {

using NodeIndex = uint32_t;

// What the expression a pattern node met contributes to the match.
enum class Contribution : uint8_t { kNothing, kInside, kInput };

// The nodes a dominator pattern walked between its child and its parent.
struct DominatorRegion {
  const PatternNode* path = nullptr;
  std::vector<NodeIndex> path_nodes;      // post-order
  std::vector<NodeIndex> side_constants;  // post-order
};

// One way a pattern node matches at one expression, as a derivation: the node's own binding
// and the derivations of its sub-patterns, which live in the memo (never copied). Flatten
// turns a derivation into bindings, inside nodes and inputs.
struct PartialMatch {
  const PatternNode* pattern = nullptr;
  NodeIndex expr = 0;
  Contribution contribution = Contribution::kNothing;
  // A call's callee contributes its bindings only (an op is neither inside nor an input).
  bool first_part_is_callee = false;
  std::vector<const PartialMatch*> parts;
  const DominatorRegion* region = nullptr;
};
using Partials = std::vector<PartialMatch>;

// Every combination of one derivation per part list, each under a copy of `head`.
Partials Combine(const PartialMatch& head, const std::vector<const Partials*>& part_lists) {
  for (const Partials* part_list : part_lists) {
    if (part_list->empty()) return {};
  }
  Partials combined{head};
  for (const Partials* part_list : part_lists) {
    Partials next;
    next.reserve(combined.size() * part_list->size());
    for (const PartialMatch& left : combined) {
      for (const PartialMatch& right : *part_list) {
        PartialMatch joined = left;
        joined.parts.push_back(&right);
        next.push_back(std::move(joined));
      }
    }
    combined = std::move(next);
  }
  return combined;
}

// A derivation flattened; vectors may hold duplicates until NormalizedNodes.
struct FlatMatch {
  std::vector<std::pair<const PatternNode*, NodeIndex>> bindings;
  std::vector<NodeIndex> inside;
  std::vector<NodeIndex> inputs;
};

void Flatten(const PartialMatch& partial, bool bindings_only, FlatMatch& flat) {
  flat.bindings.emplace_back(partial.pattern, partial.expr);
  if (!bindings_only && partial.contribution == Contribution::kInside) flat.inside.push_back(partial.expr);
  if (!bindings_only && partial.contribution == Contribution::kInput) flat.inputs.push_back(partial.expr);
  for (size_t i = 0; i < partial.parts.size(); ++i) {
    Flatten(*partial.parts[i], bindings_only || (partial.first_part_is_callee && i == 0), flat);
  }
  if (const DominatorRegion* region = partial.region) {
    for (NodeIndex node : region->path_nodes) {
      flat.bindings.emplace_back(region->path, node);
      if (!bindings_only) flat.inside.push_back(node);
    }
    if (!bindings_only) {
      flat.inputs.insert(flat.inputs.end(), region->side_constants.begin(), region->side_constants.end());
    }
  }
}

PartialMatch Head(const PatternNode& pattern, NodeIndex expr, Contribution contribution = Contribution::kNothing) {
  PartialMatch partial;
  partial.pattern = &pattern;
  partial.expr = expr;
  partial.contribution = contribution;
  return partial;
}

// The operands whose values flow into `node`: a call's arguments, a tuple's fields, a
// projection's tuple.
template <typename Visit>
void ForEachDataInput(const ExprNode& node, Visit visit) {
  switch (node.kind()) {
    case ExprKind::kCall:
      for (const Expr& arg : static_cast<const CallNode&>(node).args) visit(arg);
      break;
    case ExprKind::kTuple:
      for (const Expr& field : static_cast<const TupleNode&>(node).fields) visit(field);
      break;
    case ExprKind::kTupleGetItem: visit(static_cast<const TupleGetItemNode&>(node).tuple); break;
    default: break;
  }
}

bool IsDataflowRoot(const ExprNode& node) { return node.kind() != ExprKind::kOp && node.kind() != ExprKind::kFunction; }

bool IsComputation(const ExprNode& node) {
  return node.kind() == ExprKind::kCall || node.kind() == ExprKind::kTuple || node.kind() == ExprKind::kTupleGetItem;
}

// A cheap test that rules out a match before the memo is consulted. A pattern that only
// narrows or chooses between other patterns (alternative, optional, constraint, dominator at
// its child) cannot match where none of them can.
bool CannotMatch(const PatternNode& pattern, const ExprNode& node) {
  switch (pattern.kind()) {
    case PatternKind::kAlternative: {
      const auto& alternative = static_cast<const AlternativePatternNode&>(pattern);
      return CannotMatch(*alternative.left, node) && CannotMatch(*alternative.right, node);
    }
    case PatternKind::kOptional: {
      const auto& optional = static_cast<const OptionalPatternNode&>(pattern);
      return CannotMatch(*optional.call, node) && CannotMatch(*optional.pass_through(), node);
    }
    case PatternKind::kAttr:
    case PatternKind::kType:
    case PatternKind::kShape:
    case PatternKind::kDType: return CannotMatch(**ConstrainedPattern(pattern), node);
    case PatternKind::kDominator: return CannotMatch(*static_cast<const DominatorPatternNode&>(pattern).child, node);
    case PatternKind::kCall: {
      const auto& call_pattern = static_cast<const CallPatternNode&>(pattern);
      if (node.kind() != ExprKind::kCall) return true;
      const auto& call = static_cast<const CallNode&>(node);
      if (call.args.size() != call_pattern.args.size()) return true;
      const auto* op_pattern = call_pattern.callee.As<OpPatternNode>();
      return op_pattern != nullptr && call.op() != op_pattern->op;
    }
    case PatternKind::kOp: return node.kind() != ExprKind::kOp;
    case PatternKind::kConstant: return node.kind() != ExprKind::kConstant;
    case PatternKind::kVar: return node.kind() != ExprKind::kVar;
    case PatternKind::kTuple: return node.kind() != ExprKind::kTuple;
    case PatternKind::kTupleGetItem: return node.kind() != ExprKind::kTupleGetItem;
    default: return false;
  }
}

bool TypeConstraintHolds(const PatternNode& pattern, const Type& type) {
  if (!type) return false;
  switch (pattern.kind()) {
    case PatternKind::kType: return TypeEqual(static_cast<const TypePatternNode&>(pattern).type, type);
    case PatternKind::kShape: {
      const TensorTypeNode* tensor = AsTensorType(type);
      return tensor != nullptr && tensor->shape == static_cast<const ShapePatternNode&>(pattern).shape;
    }
    case PatternKind::kDType: {
      const TensorTypeNode* tensor = AsTensorType(type);
      return tensor != nullptr && tensor->dtype == static_cast<const DTypePatternNode&>(pattern).dtype;
    }
    default: return false;
  }
}

const Attrs* AttrsOf(const ExprNode& node) {
  if (node.kind() == ExprKind::kCall) return &static_cast<const CallNode&>(node).attrs;
  if (node.kind() == ExprKind::kFunction) return &static_cast<const FunctionNode&>(node).attrs;
  return nullptr;
}

struct MemoKey {
  const PatternNode* pattern;
  NodeIndex expr;
  bool operator==(const MemoKey& other) const { return pattern == other.pattern && expr == other.expr; }
};

struct MemoKeyHash {
  size_t operator()(const MemoKey& key) const {
    return std::hash<const void*>()(key.pattern) ^ (static_cast<size_t>(key.expr) * 0x9e3779b97f4a7c15ULL);
  }
};

}  // namespace

Expr PatternMatch::Get(const Pattern& pattern) const {
  for (const auto& [bound_pattern, expr] : bindings) {
    if (bound_pattern == pattern) return expr;
  }
  return nullptr;
}

std::vector<Expr> PatternMatch::GetAll(const Pattern& pattern) const {
  std::vector<Expr> exprs;
  for (const auto& [bound_pattern, expr] : bindings) {
    if (bound_pattern == pattern) exprs.push_back(expr);
  }
  return exprs;
}

bool PatternMatch::IsInside(const Expr& expr) const {
  return std::find(inside.begin(), inside.end(), expr) != inside.end();
}

class PatternMatcher::Impl {
 public:
  Impl(Expr graph, MatchOptions options) : graph_(std::move(graph)) {
    Check(graph_ != nullptr, "PatternMatcher needs a graph, got a null expression");
    nodes_ = PostOrder(graph_, options.enter_functions);
    index_.Reserve(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) index_.Insert(nodes_[i].get(), static_cast<NodeIndex>(i));
    memo_.reserve(nodes_.size());
    for (const Expr& node : nodes_) {
      if (const auto* call = As<CallNode>(node); call != nullptr && call->op() != nullptr) {
        ops_called_.insert(call->op());
      }
    }
  }

  const std::vector<Expr>& nodes() const { return nodes_; }

  std::vector<PatternMatch> FindAll(const Pattern& pattern, const MatchPredicate& predicate) {
    Keep(pattern);
    std::vector<PatternMatch> matches;
    if (!CallsEveryOpOf(pattern)) return matches;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (!IsDataflowRoot(*nodes_[i])) continue;
      AppendMatchesAt(*pattern, static_cast<NodeIndex>(i), predicate, matches);
    }
    return matches;
  }

  std::vector<PatternMatch> MatchesAt(const Pattern& pattern, const Expr& root, const MatchPredicate& predicate) {
    Keep(pattern);
    const NodeIndex* found = index_.Find(root.get());
    if (found == nullptr) {
      throw Error("MatchesAt: the root " + DescribeExpr(*root) + " is not a node of the graph");
    }
    std::vector<PatternMatch> matches;
    if (!CallsEveryOpOf(pattern)) return matches;
    AppendMatchesAt(*pattern, *found, predicate, matches);
    return matches;
  }

 private:
  void Keep(const Pattern& pattern) {
    Check(pattern != Pattern(), "pattern matching needs a pattern, got a null pattern");
    if (kept_pattern_nodes_.insert(pattern.get()).second) kept_patterns_.push_back(pattern);
  }

  // Whether the graph calls every op that each match of `pattern` calls (when not, it has no
  // match, and trying every node would only find that out at length).
  bool CallsEveryOpOf(const Pattern& pattern) {
    auto [known, inserted] = calls_every_op_of_.try_emplace(pattern.get(), false);
    if (inserted) {
      const std::vector<const OpDef*> required = OpsEveryMatchCalls(pattern);
      known->second = std::all_of(required.begin(), required.end(),
                                  [&](const OpDef* op) { return ops_called_.count(op) > 0; });
    }
    return known->second;
  }

  void AppendMatchesAt(const PatternNode& pattern, NodeIndex root, const MatchPredicate& predicate,
                       std::vector<PatternMatch>& matches) {
    const Partials& partials = Match(pattern, root);
    std::set<std::pair<std::vector<NodeIndex>, std::vector<NodeIndex>>> seen;
    for (const PartialMatch& partial : partials) {
      FlatMatch flat;
      Flatten(partial, false, flat);
      auto [inside, inputs] = NormalizedNodes(flat);
      if (partials.size() > 1 && seen.count({inside, inputs})) continue;
      PatternMatch match = Finalize(flat, root, inside, inputs);
      if (predicate && !predicate(match)) continue;
      if (partials.size() > 1) seen.emplace(std::move(inside), std::move(inputs));
      matches.push_back(std::move(match));
    }
  }

  // Inside nodes sorted and unique; inputs unique (first occurrence kept) and not inside.
  static std::pair<std::vector<NodeIndex>, std::vector<NodeIndex>> NormalizedNodes(const FlatMatch& partial) {
    std::vector<NodeIndex> inside = partial.inside;
    std::sort(inside.begin(), inside.end());
    inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
    std::vector<NodeIndex> inputs;
    for (NodeIndex input : partial.inputs) {
      if (std::binary_search(inside.begin(), inside.end(), input)) continue;
      if (std::find(inputs.begin(), inputs.end(), input) != inputs.end()) continue;
      inputs.push_back(input);
    }
    return {std::move(inside), std::move(inputs)};
  }

  PatternMatch Finalize(const FlatMatch& partial, NodeIndex root, const std::vector<NodeIndex>& inside,
                        const std::vector<NodeIndex>& inputs) const {
    PatternMatch match;
    match.root = nodes_[root];
    for (NodeIndex index : inside) match.inside.push_back(nodes_[index]);
    for (NodeIndex index : inputs) match.inputs.push_back(nodes_[index]);
    for (const auto& [pattern, index] : partial.bindings) match.bindings.emplace_back(pattern->handle(), nodes_[index]);
    return match;
  }

  NodeIndex IndexOf(const Expr& expr) const { return index_.At(expr.get()); }

  const Partials& Match(const PatternNode& pattern, NodeIndex expr) {
    static const Partials kNoMatch;
    if (CannotMatch(pattern, *nodes_[expr])) return kNoMatch;
    std::vector<bool>& failed = failed_at_[&pattern];  // elements keep their address as the map grows
    if (failed.empty()) failed.resize(nodes_.size());
    if (failed[expr]) return kNoMatch;
    const MemoKey key{&pattern, expr};
    if (auto found = memo_.find(key); found != memo_.end()) return found->second;
    Partials partials = Compute(pattern, expr);
    if (partials.empty()) {
      failed[expr] = true;
      return kNoMatch;
    }
    return memo_.emplace(key, std::move(partials)).first->second;
  }

  // The matches of a pattern that wraps `inner` (alternative branch, constraint, optional),
  // with the wrapper's own binding first.
  Partials Wrapped(const PatternNode& wrapper, NodeIndex expr, const Pattern& inner) {
    return Combine(Head(wrapper, expr), {&Match(*inner, expr)});
  }

  // The matches of `first`, then those of `second`, under the wrapper's own binding.
  Partials Either(const PatternNode& wrapper, NodeIndex expr, const Pattern& first, const Pattern& second) {
    Partials partials = Wrapped(wrapper, expr, first);
    Partials more = Wrapped(wrapper, expr, second);
    partials.insert(partials.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
    return partials;
  }

  Partials Compute(const PatternNode& pattern, NodeIndex expr) {
    const ExprNode& node = *nodes_[expr];
    switch (pattern.kind()) {
      case PatternKind::kWildcard: return {Head(pattern, expr, Contribution::kInput)};
      case PatternKind::kOp: {
        const auto* op = node.kind() == ExprKind::kOp ? static_cast<const OpNode*>(&node) : nullptr;
        if (op == nullptr || op->def != static_cast<const OpPatternNode&>(pattern).op) return {};
        return {Head(pattern, expr)};
      }
      case PatternKind::kConstant:
        if (node.kind() != ExprKind::kConstant) return {};
        return {Head(pattern, expr, Contribution::kInput)};
      case PatternKind::kVar: {
        if (node.kind() != ExprKind::kVar) return {};
        const std::string& name = static_cast<const VarPatternNode&>(pattern).name;
        if (!name.empty() && static_cast<const VarNode&>(node).name_hint != name) return {};
        return {Head(pattern, expr, Contribution::kInput)};
      }
      case PatternKind::kCall: return MatchCall(static_cast<const CallPatternNode&>(pattern), expr);
      case PatternKind::kTuple: return MatchTuple(static_cast<const TuplePatternNode&>(pattern), expr);
      case PatternKind::kTupleGetItem:
        return MatchTupleGetItem(static_cast<const TupleGetItemPatternNode&>(pattern), expr);
      case PatternKind::kAlternative: {
        const auto& alternative = static_cast<const AlternativePatternNode&>(pattern);
        return Either(pattern, expr, alternative.left, alternative.right);
      }
      case PatternKind::kOptional: {
        const auto& optional = static_cast<const OptionalPatternNode&>(pattern);
        return Either(pattern, expr, optional.call, optional.pass_through());
      }
      case PatternKind::kAttr: {
        const auto& constraint = static_cast<const AttrPatternNode&>(pattern);
        const Attrs* attrs = AttrsOf(node);
        if (attrs == nullptr || !AttrsSatisfy(*attrs, constraint.attrs)) return {};
        return Wrapped(pattern, expr, constraint.pattern);
      }
      case PatternKind::kType:
      case PatternKind::kShape:
      case PatternKind::kDType:
        if (!TypeConstraintHolds(pattern, node.checked_type())) return {};
        return Wrapped(pattern, expr, *ConstrainedPattern(pattern));
      case PatternKind::kDominator: return MatchDominator(static_cast<const DominatorPatternNode&>(pattern), expr);
    }
    return {};
  }

  Partials MatchCall(const CallPatternNode& pattern, NodeIndex expr) {
    const CallNode* call = As<CallNode>(nodes_[expr]);
    if (call == nullptr || call->args.size() != pattern.args.size()) return {};
    // The first part without a match decides: the rest need not be matched.
    std::vector<const Partials*> parts{&Match(*pattern.callee, IndexOf(call->callee))};
    if (parts.back()->empty()) return {};
    for (size_t i = 0; i < call->args.size(); ++i) {
      parts.push_back(&Match(*pattern.args[i], IndexOf(call->args[i])));
      if (parts.back()->empty()) return {};
    }
    PartialMatch head = Head(pattern, expr, Contribution::kInside);
    head.first_part_is_callee = true;
    return Combine(head, parts);
  }

  Partials MatchTuple(const TuplePatternNode& pattern, NodeIndex expr) {
    const TupleNode* tuple = As<TupleNode>(nodes_[expr]);
    if (tuple == nullptr || tuple->fields.size() != pattern.fields.size()) return {};
    std::vector<const Partials*> parts;
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      parts.push_back(&Match(*pattern.fields[i], IndexOf(tuple->fields[i])));
      if (parts.back()->empty()) return {};
    }
    return Combine(Head(pattern, expr, Contribution::kInside), parts);
  }

  Partials MatchTupleGetItem(const TupleGetItemPatternNode& pattern, NodeIndex expr) {
    const TupleGetItemNode* projection = As<TupleGetItemNode>(nodes_[expr]);
    if (projection == nullptr) return {};
    if (pattern.index != kAnyTupleIndex && pattern.index != projection->index) return {};
    return Combine(Head(pattern, expr, Contribution::kInside), {&Match(*pattern.tuple, IndexOf(projection->tuple))});
  }

  // See DominatorPatternNode: the child matches at `expr`; walking back from its operands
  // every node is the parent, a path node, or a constant; the region does not leak.
  Partials MatchDominator(const DominatorPatternNode& pattern, NodeIndex expr) {
    const Partials& child = Match(*pattern.child, expr);
    if (child.empty()) return {};
    std::vector<NodeIndex> pending;
    ForEachDataInput(*nodes_[expr], [&](const Expr& input) { pending.push_back(IndexOf(input)); });
    std::unordered_set<NodeIndex> visited;
    std::vector<NodeIndex> path_nodes;
    std::vector<NodeIndex> side_constants;
    bool has_parent = false;
    NodeIndex parent = 0;
    while (!pending.empty()) {
      const NodeIndex current = pending.back();
      pending.pop_back();
      if (!visited.insert(current).second) continue;
      const ExprNode& node = *nodes_[current];
      if (!Match(*pattern.parent, current).empty()) {
        if (has_parent && parent != current) return {};
        has_parent = true;
        parent = current;
      } else if (IsComputation(node) && !Match(*pattern.path, current).empty()) {
        path_nodes.push_back(current);
        ForEachDataInput(node, [&](const Expr& input) { pending.push_back(IndexOf(input)); });
      } else if (node.kind() == ExprKind::kConstant) {
        side_constants.push_back(current);
      } else {
        return {};
      }
    }
    if (!has_parent) return {};
    std::sort(path_nodes.begin(), path_nodes.end());
    std::sort(side_constants.begin(), side_constants.end());
    if (!RegionStaysInside(parent, path_nodes, expr)) return {};

    DominatorRegion& region = regions_.emplace_back();
    region.path = pattern.path.get();
    region.path_nodes = std::move(path_nodes);
    region.side_constants = std::move(side_constants);
    PartialMatch head = Head(pattern, expr);
    head.region = &region;
    return Combine(head, {&child, &Match(*pattern.parent, parent)});
  }

  // Whether every user of the parent and the path nodes is a path node or the child, and
  // none of them is a result of the graph.
  bool RegionStaysInside(NodeIndex parent, const std::vector<NodeIndex>& path_nodes, NodeIndex child) {
    BuildUsers();
    auto stays = [&](NodeIndex node) {
      if (external_[node]) return false;
      for (NodeIndex user : users_[node]) {
        if (user != child && !std::binary_search(path_nodes.begin(), path_nodes.end(), user)) return false;
      }
      return true;
    };
    return stays(parent) && std::all_of(path_nodes.begin(), path_nodes.end(), stays);
  }

  void BuildUsers() {
    if (!users_.empty() || nodes_.empty()) return;
    users_.resize(nodes_.size());
    external_.assign(nodes_.size(), false);
    for (size_t i = 0; i < nodes_.size(); ++i) {
      ForEachDataInput(*nodes_[i],
                       [&](const Expr& input) { users_[IndexOf(input)].push_back(static_cast<NodeIndex>(i)); });
      if (const FunctionNode* function = As<FunctionNode>(nodes_[i])) {
        if (const NodeIndex* body = index_.Find(function->body.get())) external_[*body] = true;
      }
    }
    external_[IndexOf(graph_)] = true;
  }

  Expr graph_;
  std::vector<Expr> nodes_;
  PointerMap<NodeIndex> index_;
  std::vector<std::vector<NodeIndex>> users_;
  std::vector<bool> external_;
  std::vector<Pattern> kept_patterns_;
  std::unordered_set<const PatternNode*> kept_pattern_nodes_;
  std::unordered_map<MemoKey, Partials, MemoKeyHash> memo_;  // the attempts that matched
  std::unordered_set<const OpDef*> ops_called_;  // by some call among nodes_
  std::unordered_map<const PatternNode*, bool> calls_every_op_of_;  // patterns kept
  // Per pattern node, one bit per graph node where it was tried and failed: most attempts fail
  // (on a 100,000-op chain, every activation is tried as the root of each pattern ending in one),
  // and a bit costs far less than a memo entry.
  std::unordered_map<const PatternNode*, std::vector<bool>> failed_at_;
  std::deque<DominatorRegion> regions_;  // stable addresses for the memo's derivations
};

PatternMatcher::PatternMatcher(Expr body, MatchOptions options)
    : impl_(std::make_unique<Impl>(std::move(body), options)) {}

PatternMatcher::~PatternMatcher() = default;

std::vector<PatternMatch> PatternMatcher::FindAll(const Pattern& pattern, const MatchPredicate& predicate) {
  return impl_->FindAll(pattern, predicate);
}

std::vector<PatternMatch> PatternMatcher::MatchesAt(const Pattern& pattern, const Expr& root,
                                                    const MatchPredicate& predicate) {
  return impl_->MatchesAt(pattern, root, predicate);
}

const std::vector<Expr>& PatternMatcher::nodes() const { return impl_->nodes(); }

std::vector<PatternMatch> FindAllMatches(const Pattern& pattern, const Expr& body, const MatchPredicate& predicate,
                                         const MatchOptions& options) {
  return PatternMatcher(body, options).FindAll(pattern, predicate);
}

bool MatchesPattern(const Pattern& pattern, const Expr& expr) {
  return !PatternMatcher(expr).MatchesAt(pattern, expr).empty();
}

}  // namespace collage
