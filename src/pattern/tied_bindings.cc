#include "pattern/tied_bindings.h"

namespace collage {

MatchPredicate BindsOneExpressionEach(std::vector<Pattern> tied) {
  return [tied = std::move(tied)](const PatternMatch& match) {
    for (const Pattern& pattern : tied) {
      const std::vector<Expr> bound = match.GetAll(pattern);
      for (const Expr& expr : bound) {
        if (expr != bound.front()) return false;
      }
    }
    return true;
  };
}

}  // namespace collage
