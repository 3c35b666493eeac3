#include "collage/partition_rule.h"

#include <algorithm>
#include <unordered_set>

#include "backend/precision.h"
#include "collage/outline_partitions.h"

namespace collage {
namespace {

// Candidates without duplicate sub-graphs, in insertion order, indexed by their first inside
// node: rules add and look up candidates roughly in node order, so the entries a lookup reads
// lie near those the previous one read (a hash table would miss the cache on nearly every
// lookup among a million candidates).
class CandidateSet {
 public:
  // False (and nothing added) when an equal sub-graph is already present.
  bool Add(CandidatePartition candidate) {
    const SubGraph& sub_graph = candidate.sub_graph();
    const size_t hash = sub_graph.inside().Hash();
    std::vector<Entry>& bucket = BucketOf(sub_graph.inside(), sub_graph.first_inside());
    for (const Entry& entry : bucket) {
      if (entry.hash == hash && candidates_[entry.index].sub_graph() == sub_graph) return false;
    }
    bucket.push_back(Entry{hash, candidates_.size()});
    candidates_.push_back(std::move(candidate));
    return true;
  }
  // Whether first.DisjointUnion(second), of inside set `union_inside`, is present.
  bool ContainsDisjointUnion(const IndexSet& union_inside, const SubGraph& first, const SubGraph& second) {
    const size_t hash = union_inside.Hash();
    const size_t first_inside = std::min(first.first_inside(), second.first_inside());
    for (const Entry& entry : BucketOf(union_inside, first_inside)) {
      if (entry.hash == hash &&
          candidates_[entry.index].sub_graph().IsDisjointUnionOf(union_inside, first, second)) {
        return true;
      }
    }
    return false;
  }
  const std::vector<CandidatePartition>& candidates() const { return candidates_; }
  // The candidates stably sorted by first inside index, each moved once.
  std::vector<CandidatePartition> TakeSorted() {
    std::vector<CandidatePartition> sorted;
    sorted.reserve(candidates_.size());
    for (const std::vector<Entry>& bucket : by_first_inside_) {
      for (const Entry& entry : bucket) sorted.push_back(std::move(candidates_[entry.index]));
    }
    candidates_.clear();
    by_first_inside_.clear();
    return sorted;
  }

 private:
  struct Entry {
    size_t hash;   // of the inside set
    size_t index;  // into candidates_
  };
  // The bucket of sub-graphs whose first inside node is `first_inside` (the graph's size for an
  // empty one), `inside` being any of their inside sets.
  std::vector<Entry>& BucketOf(const IndexSet& inside, size_t first_inside) {
    if (by_first_inside_.empty()) by_first_inside_.resize(inside.size() + 1);
    return by_first_inside_.at(first_inside);
  }

  std::vector<CandidatePartition> candidates_;
  std::vector<std::vector<Entry>> by_first_inside_;  // per first inside node, in insertion order
};

IndexSet Singleton(const DataflowGraph& graph, size_t index) {
  IndexSet set(graph.size());
  set.Add(index);
  return set;
}

std::string OpLabel(const DataflowNode& node) {
  const auto* call = As<CallNode>(node.expr);
  if (call && call->op()) return call->op()->name;
  switch (node.expr->kind()) {
    case ExprKind::kTuple:
      return "tuple";
    case ExprKind::kTupleGetItem:
      return "proj";
    case ExprKind::kConstant:
      return "const";
    default:
      return "node";
  }
}

}  // namespace

std::vector<CandidatePartition> PartitionSpec::AllCandidates(const DataflowGraph& graph) const {
  Check(rule != nullptr, "PartitionSpec '" + name + "' has no partition rule");
  return rule->AllCandidates(graph, *this);
}

std::string PartitionSpec::ToString() const {
  return "PartitionSpec(" + name + ", backend=" + backend + ")\n" + (rule ? rule->ToString(2) : "  (no rule)\n");
}

std::string PartitionRule::ToString(int indent) const {
  std::string text = std::string(static_cast<size_t>(indent), ' ') + Describe() + "\n";
  for (const PartitionRule* sub_rule : SubRules()) text += sub_rule->ToString(indent + 2);
  return text;
}

std::shared_ptr<const CandidateOrigin> PartitionRule::Origin(const PartitionSpec& spec, const std::string& rule_name) {
  return std::make_shared<const CandidateOrigin>(CandidateOrigin{spec.name, spec.backend, rule_name});
}

std::vector<CandidatePartition> OpPredicatePartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                        const PartitionSpec& spec) const {
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  std::vector<CandidatePartition> candidates;
  for (const DataflowNode& node : graph.nodes()) {
    const auto* call = As<CallNode>(node.expr);
    if (call == nullptr || call->op() == nullptr || !predicate_(*call)) continue;
    candidates.emplace_back(SubGraph(graph, Singleton(graph, node.index), OpLabel(node)), origin);
  }
  return candidates;
}

std::vector<CandidatePartition> OpCallByKindPartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                         const PartitionSpec& spec) const {
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  std::vector<CandidatePartition> candidates;
  for (const DataflowNode& node : graph.nodes()) {
    const auto* call = As<CallNode>(node.expr);
    if (call == nullptr || call->op() == nullptr) continue;
    candidates.emplace_back(SubGraph(graph, Singleton(graph, node.index), OpLabel(node)), origin);
  }
  return candidates;
}

std::vector<CandidatePartition> HostPartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                 const PartitionSpec& spec) const {
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  std::vector<CandidatePartition> candidates;
  for (const DataflowNode& node : graph.nodes()) {
    const ExprKind kind = node.expr->kind();
    if (kind != ExprKind::kTuple && kind != ExprKind::kTupleGetItem && kind != ExprKind::kConstant) continue;
    candidates.emplace_back(SubGraph(graph, Singleton(graph, node.index), OpLabel(node)), origin);
  }
  return candidates;
}

std::vector<CandidatePartition> CompositePartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                      const PartitionSpec& spec) const {
  const SubGraphConfig single_value{.max_exits = 1, .allow_taps = false, .max_depth = 0};
  const auto attrs = std::make_shared<const Attrs>(Attrs{{attr::kComposite, name()}});
  const JoinedLabel label(name());
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  std::vector<CandidatePartition> candidates;
  for (CandidatePartition& sub : sub_rule_->AllCandidates(graph, spec)) {
    if (!sub.sub_graph().IsValid(graph, single_value)) continue;
    SubGraph wrapped = SubGraph::Wrapping(std::make_shared<const SubGraph>(std::move(sub).TakeSubGraph()), attrs)
                           .WithLabel(graph, label);
    candidates.emplace_back(std::move(wrapped), origin);
  }
  return candidates;
}

namespace {

// A boundary other than plain is offered only where it differs from the plain one and, when
// mixed, from the uniform boundaries of its two layouts: some rank-4 value crossing the
// sub-graph has different bytes in it.
bool IsDistinctBoundary(const DataflowGraph& graph, const SubGraph& sub_graph, const PartitionLayouts& layouts) {
  if (layouts.IsPlain()) return true;
  if (layouts.IsUniform()) {
    return sub_graph.InputBytesChangedBetween(graph, Layout::kPlain, layouts.parameters) +
               sub_graph.ExitBytesChangedBetween(graph, Layout::kPlain, layouts.results) >
           0;
  }
  return sub_graph.InputBytesChangedBetween(graph, layouts.parameters, layouts.results) > 0 &&
         sub_graph.ExitBytesChangedBetween(graph, layouts.parameters, layouts.results) > 0;
}

}  // namespace

std::optional<std::vector<double>> CalibratedInputRanges(const DataflowGraph& graph, const SubGraph& sub_graph,
                                                         const CalibratedRangeOf& calibrated_range) {
  std::vector<double> bounds;
  for (size_t input : NonConstantInputs(graph, sub_graph)) {
    const std::optional<ActivationRange> range = calibrated_range(*graph.node(input).expr);
    if (!range) return std::nullopt;
    bounds.push_back(range->min);
    bounds.push_back(range->max);
  }
  return bounds;
}

std::vector<DType> PrimitivePartitionRule::VariantPrecisions(const DataflowGraph& graph,
                                                             const SubGraph& sub_graph) const {
  std::vector<DType> offered;
  for (DType precision : reduced_precisions_.precisions) {
    bool reads_parameter = false;
    for (size_t index : sub_graph.inside().ToVector()) {
      const auto* call = As<CallNode>(graph.node(index).expr);
      if (call == nullptr || call->op() == nullptr || !reduced_precisions_.supports(*call, precision)) continue;
      for (const Expr& arg : call->args) {
        const size_t arg_index = graph.IndexOf(arg.get());
        reads_parameter |= arg->kind() != ExprKind::kConstant && !sub_graph.inside().Contains(arg_index);
      }
    }
    if (reads_parameter) offered.push_back(precision);
  }
  return offered;
}

std::vector<CandidatePartition> PrimitivePartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                      const PartitionSpec& spec) const {
  // The f32 wrapping attributes of each boundary, shared by every candidate.
  std::vector<std::shared_ptr<const Attrs>> boundary_attrs;
  for (const PartitionLayouts& layouts : boundaries_) {
    Attrs attrs{{attr::kPrimitive, int64_t{1}}, {attr::kCompiler, spec.backend}};
    if (!layouts.IsPlain()) attrs.Set(attr::kBoundaryLayout, PartitionLayoutsName(layouts));
    boundary_attrs.push_back(std::make_shared<const Attrs>(std::move(attrs)));
  }
  std::vector<CandidatePartition> subs = sub_rule_->AllCandidates(graph, spec);
  std::vector<CandidatePartition> candidates;
  candidates.reserve(subs.size());
  std::vector<DType> precisions;  // per sub-graph: f32, then the reduced ones it is offered in
  for (CandidatePartition& sub : subs) {
    // The sub-rule found it for this spec, so its origin (naming that rule) is the wrapping's too.
    const std::shared_ptr<const CandidateOrigin> origin = sub.origin();
    const auto inner = std::make_shared<const SubGraph>(std::move(sub).TakeSubGraph());
    precisions.assign(1, DType::kF32);
    std::optional<std::vector<double>> ranges;
    if (spec.calibrated_range && !reduced_precisions_.precisions.empty()) {
      const std::vector<DType> reduced = VariantPrecisions(graph, *inner);
      if (!reduced.empty()) ranges = CalibratedInputRanges(graph, *inner, spec.calibrated_range);
      if (ranges) precisions.insert(precisions.end(), reduced.begin(), reduced.end());
    }
    for (size_t boundary = 0; boundary < boundaries_.size(); ++boundary) {
      if (!IsDistinctBoundary(graph, *inner, boundaries_[boundary])) continue;
      for (DType precision : precisions) {
        std::shared_ptr<const Attrs> attrs = boundary_attrs[boundary];
        if (precision != DType::kF32) {
          Attrs variant = *attrs;
          variant.Set(attr::kPrecision, std::string(DTypeName(precision)));
          variant.Set(attr::kActivationRanges, *ranges);
          attrs = std::make_shared<const Attrs>(std::move(variant));
        }
        candidates.emplace_back(SubGraph::Wrapping(inner, std::move(attrs)), origin);
      }
    }
  }
  return candidates;
}

std::string PrimitivePartitionRule::Describe() const {
  std::string layouts;
  for (const PartitionLayouts& boundary : boundaries_) {
    layouts += (layouts.empty() ? "" : ",") + PartitionLayoutsName(boundary);
  }
  std::string precisions;
  for (DType precision : reduced_precisions_.precisions) {
    precisions += std::string(precisions.empty() ? "" : ",") + std::string(DTypeName(precision));
  }
  return "PrimitivePartitionRule(" + name() + (boundaries_.size() > 1 ? ", layouts=" + layouts : "") +
         (precisions.empty() ? "" : ", precisions=f32," + precisions) + ")";
}

std::vector<CandidatePartition> OnlyValidPartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                      const PartitionSpec& spec) const {
  std::vector<CandidatePartition> candidates = sub_rule_->AllCandidates(graph, spec);
  std::erase_if(candidates, [&](const CandidatePartition& sub) { return !sub.sub_graph().IsValid(graph, config_); });
  return candidates;
}

std::string OnlyValidPartitionRule::Describe() const {
  return "OnlyValidPartitionRule(" + name() + ", " + SubGraphConfigToString(config_) + ")";
}

namespace {

// Whether `candidates` are ordered by first inside node and no two are equal, judged only where
// that is cheap: false when a run of equal first nodes is too long to compare pairwise.
bool AreSortedAndDistinct(const std::vector<CandidatePartition>& candidates) {
  constexpr size_t kLongestRunCompared = 8;
  for (size_t begin = 0; begin < candidates.size();) {
    const size_t first = candidates[begin].sub_graph().first_inside();
    size_t end = begin + 1;
    while (end < candidates.size() && candidates[end].sub_graph().first_inside() == first) ++end;
    if (end < candidates.size() && candidates[end].sub_graph().first_inside() < first) return false;
    if (end - begin > kLongestRunCompared) return false;
    for (size_t i = begin; i < end; ++i) {
      for (size_t j = begin; j < i; ++j) {
        if (candidates[i].sub_graph() == candidates[j].sub_graph()) return false;
      }
    }
    begin = end;
  }
  return true;
}

}  // namespace

std::vector<CandidatePartition> UnionPartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                  const PartitionSpec& spec) const {
  std::vector<std::vector<CandidatePartition>> results;
  for (const PartitionRulePtr& sub_rule : sub_rules_) {
    std::vector<CandidatePartition> result = sub_rule->AllCandidates(graph, spec);
    if (!result.empty()) results.push_back(std::move(result));
  }
  if (results.empty()) return {};
  // One sub-rule's list, already in order and without repeats, is its own union: the common case
  // (a pattern table matching nothing beside the op rules) then skips hashing every candidate.
  if (results.size() == 1 && AreSortedAndDistinct(results.front())) return std::move(results.front());
  CandidateSet set;
  for (std::vector<CandidatePartition>& result : results) {
    for (CandidatePartition& candidate : result) set.Add(std::move(candidate));
    result = {};
  }
  return set.TakeSorted();
}

std::vector<const PartitionRule*> UnionPartitionRule::SubRules() const {
  std::vector<const PartitionRule*> sub_rules;
  for (const PartitionRulePtr& sub_rule : sub_rules_) sub_rules.push_back(sub_rule.get());
  return sub_rules;
}

bool CombinePartitionRule::MayJoin(const DataflowGraph& graph, const SubGraph& upstream,
                                   const SubGraph& downstream) const {
  for (const auto& rule : combiner_rules_) {
    if (rule->Fires(graph, upstream, downstream)) return true;
  }
  return false;
}

std::vector<CandidatePartition> CombinePartitionRule::AllCandidates(const DataflowGraph& graph,
                                                                    const PartitionSpec& spec) const {
  const std::shared_ptr<const CandidateOrigin> origin = Origin(spec, name());
  CandidateSet set;
  // A candidate disjoint from another and fed by it has each node so fed among its entries, and
  // one feeding another has each feeding node among its exits: partners are found by those.
  std::vector<std::vector<size_t>> entering(graph.size());  // candidates with the node an entry
  std::vector<std::vector<size_t>> exiting(graph.size());   // candidates with the node an exit
  std::vector<size_t> containing(graph.size(), 0);          // how many candidates hold the node
  size_t most_containing = 0;                               // the largest containing[node]
  auto add = [&](CandidatePartition candidate) {
    const size_t index = set.candidates().size();
    if (!set.Add(std::move(candidate))) return;
    const SubGraph& added = set.candidates()[index].sub_graph();
    added.inside().ForEach([&](size_t node) { most_containing = std::max(most_containing, ++containing[node]); });
    added.entry().ForEach([&](size_t node) { entering[node].push_back(index); });
    added.exit().ForEach([&](size_t node) { exiting[node].push_back(index); });
  };
  for (CandidatePartition& candidate : sub_rule_->AllCandidates(graph, spec)) add(std::move(candidate));

  // The inside sets of invalid unions, not to re-check (validity depends on the inside set only).
  std::unordered_set<IndexSet, IndexSetHash> invalid_insides;
  auto crowded = [&](const SubGraph& sub_graph) {
    if (most_containing < kMaxCandidatesPerNode) return false;
    for (std::optional<size_t> node = sub_graph.inside().FirstInside(); node;
         node = sub_graph.inside().FirstInside(*node + 1)) {
      if (containing[*node] >= kMaxCandidatesPerNode) return true;
    }
    return false;
  };
  auto try_join = [&](size_t upstream, size_t downstream) {
    const SubGraph& up = set.candidates()[upstream].sub_graph();
    const SubGraph& down = set.candidates()[downstream].sub_graph();
    if (!up.inside().AreDisjoint(down.inside())) return;
    if (config_.max_depth > 0 && up.UnionDepthAtLeast(down) > config_.max_depth) return;  // too deep to be valid
    if (!MayJoin(graph, up, down)) return;
    if (config_.max_exits > 0 && up.ExitCountOfUnion(graph, down) > config_.max_exits) return;
    if (crowded(up) || crowded(down)) return;
    IndexSet union_inside = up.inside() | down.inside();
    if (invalid_insides.count(union_inside) > 0 || set.ContainsDisjointUnion(union_inside, up, down)) return;
    SubGraph joined = up.DisjointUnion(graph, down);
    if (!joined.IsValid(graph, config_)) {
      invalid_insides.insert(std::move(union_inside));
      return;
    }
    add(CandidatePartition(std::move(joined), origin));
  };
  for (size_t frontier_begin = 0; frontier_begin < set.candidates().size();) {
    const size_t frontier_end = set.candidates().size();
    for (size_t current = frontier_begin; current < frontier_end; ++current) {
      // A partner of this round processed before `current` tried the same pair then (both
      // existed since the round began); trying again would add nothing, as whatever rejects a
      // union still does and a union once made stays present.
      auto tried_already = [&](size_t partner) { return partner >= frontier_begin && partner < current; };
      // Copies: joining adds candidates, which may move the current one.
      const IndexSet outputs = set.candidates()[current].sub_graph().output();
      const IndexSet inputs = set.candidates()[current].sub_graph().input();
      outputs.ForEach([&](size_t node) {
        for (size_t k = 0; k < entering[node].size(); ++k) {
          if (!tried_already(entering[node][k])) try_join(current, entering[node][k]);
        }
      });
      inputs.ForEach([&](size_t node) {
        for (size_t k = 0; k < exiting[node].size(); ++k) {
          if (!tried_already(exiting[node][k])) try_join(exiting[node][k], current);
        }
      });
    }
    frontier_begin = frontier_end;
  }
  return set.TakeSorted();
}

std::string CombinePartitionRule::Describe() const {
  std::string text = "CombinePartitionRule(" + name() + ", " + SubGraphConfigToString(config_) + ", [";
  for (size_t i = 0; i < combiner_rules_.size(); ++i) text += (i ? ", " : "") + combiner_rules_[i]->ToString();
  return text + "])";
}

std::string SubGraphConfigToString(const SubGraphConfig& config) {
  auto limit = [](size_t value) { return value == 0 ? std::string("unlimited") : std::to_string(value); };
  return "max_exits=" + limit(config.max_exits) + " allow_taps=" + (config.allow_taps ? "true" : "false") +
         " max_depth=" + limit(config.max_depth);
}

}  // namespace collage
