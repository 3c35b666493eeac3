#include "pass/byoc/merge_composite.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pattern/pattern_matcher.h"

namespace collage {
namespace {

struct LabelledMatch {
  PatternMatch match;
  const BackendPattern* entry;
  size_t table_position;
  size_t root_position;
};

bool IsCallee(const Expr& expr) { return expr->kind() == ExprKind::kOp || expr->kind() == ExprKind::kFunction; }

class CompositeMerger {
 public:
  explicit CompositeMerger(const Expr& body) : body_(body), matcher_(body) {
    const std::vector<Expr>& nodes = matcher_.nodes();
    for (size_t i = 0; i < nodes.size(); ++i) position_[nodes[i].get()] = i;
    for (const Expr& node : nodes) {
      ForEachChild(*node, [&](const Expr& child) { users_[child.get()].push_back(node.get()); });
    }
  }

  void ClaimMatchesOf(const SupportDeclaration& backend) {
    std::vector<LabelledMatch> candidates;
    for (size_t k = 0; k < backend.patterns.size(); ++k) {
      const BackendPattern& entry = backend.patterns[k];
      for (PatternMatch& match : matcher_.FindAll(entry.pattern, entry.predicate)) {
        const size_t root_position = position_.at(match.root.get());
        candidates.push_back({std::move(match), &entry, k, root_position});
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(), [](const LabelledMatch& a, const LabelledMatch& b) {
      if (a.match.inside.size() != b.match.inside.size()) return a.match.inside.size() > b.match.inside.size();
      if (a.table_position != b.table_position) return a.table_position < b.table_position;
      return a.root_position < b.root_position;
    });
    for (LabelledMatch& candidate : candidates) {
      if (!CanWrap(candidate.match)) continue;
      for (const Expr& node : candidate.match.inside) claimed_.insert(node.get());
      accepted_.push_back(std::move(candidate));
    }
  }

  Expr Rewrite() {
    std::unordered_map<const ExprNode*, const LabelledMatch*> match_at_root;
    for (const LabelledMatch& accepted : accepted_) match_at_root[accepted.match.root.get()] = &accepted;
    std::unordered_map<const ExprNode*, Expr> rewritten;
    auto outer = [&](const Expr& child) {
      auto it = rewritten.find(child.get());
      return it == rewritten.end() ? child : it->second;
    };
    for (const Expr& node : PostOrder(body_, /*enter_functions=*/false)) {
      if (IsCallee(node) || node->kind() == ExprKind::kVar) continue;
      if (auto it = match_at_root.find(node.get()); it != match_at_root.end()) {
        const auto& [function, inputs] = Outline(*it->second);
        std::vector<Expr> args;
        for (const Expr& input : inputs) args.push_back(outer(input));
        rewritten[node.get()] = MakeCall(function, args);
        continue;
      }
      std::vector<Expr> children;
      ForEachChild(*node, [&](const Expr& child) { children.push_back(outer(child)); });
      rewritten[node.get()] = WithChildren(node, children);
    }
    return outer(body_);
  }

 private:
  bool CanWrap(const PatternMatch& match) const {
    if (match.inside.empty() || !match.IsInside(match.root)) return false;
    for (const Expr& node : match.inside) {
      if (claimed_.count(node.get())) return false;
      if (node == match.root) continue;
      if (node == body_) return false;
      auto it = users_.find(node.get());
      if (it == users_.end()) continue;
      for (const ExprNode* user : it->second) {
        if (std::none_of(match.inside.begin(), match.inside.end(), [&](const Expr& inside) { return inside.get() == user; })) {
          return false;
        }
      }
    }
    return true;
  }

  // The Composite function of a match and the outer expressions its parameters stand for.
  std::pair<Function, std::vector<Expr>> Outline(const LabelledMatch& accepted) const {
    const PatternMatch& match = accepted.match;
    std::unordered_map<const ExprNode*, Expr> inner;
    std::vector<Var> params;
    std::vector<Expr> inputs;
    auto add_param = [&](const Expr& input) {
      if (inner.count(input.get())) return;
      Var param = MakeVar("p" + std::to_string(params.size()), input->checked_type());
      params.push_back(param);
      inputs.push_back(input);
      inner[input.get()] = param;
    };
    for (const Expr& input : match.inputs) add_param(input);
    for (const Expr& node : match.inside) {
      std::vector<Expr> children;
      ForEachChild(*node, [&](const Expr& child) {
        if (IsCallee(child)) {
          children.push_back(child);
          return;
        }
        add_param(child);  // no-op for inside nodes and declared inputs
        children.push_back(inner.at(child.get()));
      });
      inner[node.get()] = WithChildren(node, children);
    }
    Function function =
        MakeFunction(params, inner.at(match.root.get()), Attrs{{attr::kComposite, accepted.entry->label}});
    return {function, inputs};
  }

  Expr body_;
  PatternMatcher matcher_;
  std::unordered_map<const ExprNode*, size_t> position_;
  std::unordered_map<const ExprNode*, std::vector<const ExprNode*>> users_;
  std::unordered_set<const ExprNode*> claimed_;
  std::vector<LabelledMatch> accepted_;
};

}  // namespace

Expr MergeCompositeInBody(const Expr& body, const std::vector<SupportDeclaration>& backends_in_priority_order) {
  const bool any_patterns = std::any_of(backends_in_priority_order.begin(), backends_in_priority_order.end(),
                                        [](const SupportDeclaration& backend) { return !backend.patterns.empty(); });
  if (!any_patterns) return body;
  CompositeMerger merger(body);
  for (const SupportDeclaration& backend : backends_in_priority_order) merger.ClaimMatchesOf(backend);
  return merger.Rewrite();
}

Pass MergeComposite(std::vector<SupportDeclaration> backends_in_priority_order) {
  return Pass::ModulePass({"MergeComposite", 0}, [backends = std::move(backends_in_priority_order)](
                                                     const Module& module, const PassContext&) {
    Module result;
    for (const auto& [name, function] : module.functions()) {
      InferType(function);
      Function merged = MakeFunction(function->params, MergeCompositeInBody(function->body, backends), function->attrs);
      InferType(merged);
      result.Add(name, merged);
    }
    return result;
  });
}

}  // namespace collage
