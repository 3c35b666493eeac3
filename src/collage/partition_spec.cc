#include "collage/partition_spec.h"

#include "collage/pattern_partition_rule.h"

namespace collage {

SubGraphConfig DefaultSubGraphConfig() { return SubGraphConfig{.max_exits = 1, .allow_taps = false, .max_depth = 6}; }

PartitionRulePtr MakePatternTableRule(const SupportDeclaration& declaration) {
  std::vector<PartitionRulePtr> composites;
  for (const BackendPattern& entry : declaration.patterns) {
    if (!declaration.SupportsComposite(entry.label)) {
      throw Error("backend '" + declaration.backend + "': pattern label '" + entry.label + "' does not start with '" +
                  declaration.backend + ".'");
    }
    auto match = std::make_shared<DFPatternPartitionRule>(entry.label, entry.pattern, entry.predicate);
    composites.push_back(std::make_shared<CompositePartitionRule>(entry.label, match));
  }
  return std::make_shared<UnionPartitionRule>(declaration.backend + ".patterns", std::move(composites));
}

PartitionSpec MakePartitionSpec(const SupportDeclaration& declaration, const SubGraphConfig& config) {
  const std::string& backend = declaration.backend;
  std::vector<PartitionRulePtr> seeds;
  if (declaration.supports_op) {
    seeds.push_back(std::make_shared<OpPredicatePartitionRule>(backend + ".ops", declaration.supports_op));
  } else if (declaration.fuses_like_fuse_ops) {
    seeds.push_back(std::make_shared<OpCallByKindPartitionRule>(backend + ".ops"));
  }
  if (!declaration.patterns.empty()) seeds.push_back(MakePatternTableRule(declaration));
  if (seeds.empty()) {
    throw Error("backend '" + backend + "' declares no op predicate, no pattern and no FuseOps-style fusion");
  }
  PartitionRulePtr rule =
      seeds.size() == 1 ? seeds.front() : std::make_shared<UnionPartitionRule>(backend + ".seeds", std::move(seeds));
  if (declaration.fuses_like_fuse_ops) {
    rule = std::make_shared<CombinePartitionRule>(backend + ".combine", rule, DefaultCombinerRules(), config);
  } else if (declaration.supports_op) {
    rule = std::make_shared<CombinePartitionRule>(
        backend + ".combine", rule,
        std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<AllSimpleCombinerRule>()}, config);
  }
  PartitionRulePtr valid = std::make_shared<OnlyValidPartitionRule>(backend + ".valid", rule, config);
  if (!declaration.patterns.empty()) {
    // A match of the backend's own table is one unit however deep it is (a decomposed layer norm
    // or attention is 9 nodes deep): the depth bound keeps combining finite, so it bounds only
    // what the combiner builds.
    SubGraphConfig any_depth = config;
    any_depth.max_depth = 0;
    PartitionRulePtr whole_patterns = std::make_shared<OnlyValidPartitionRule>(
        backend + ".patterns.valid", MakePatternTableRule(declaration), any_depth);
    const bool patterns_only = seeds.size() == 1 && !declaration.fuses_like_fuse_ops;
    valid = patterns_only ? whole_patterns
                          : std::make_shared<UnionPartitionRule>(backend + ".candidates",
                                                                 std::vector<PartitionRulePtr>{valid, whole_patterns});
  }
  std::vector<PartitionLayouts> boundaries;
  for (Layout layout : declaration.boundary_layouts) boundaries.push_back(PartitionLayouts::Uniform(layout));
  boundaries.insert(boundaries.end(), declaration.mixed_boundary_layouts.begin(),
                    declaration.mixed_boundary_layouts.end());
  ReducedPrecisions reduced;
  if (declaration.supports_precision) reduced = {declaration.reduced_precisions, declaration.supports_precision};
  return PartitionSpec{backend, backend,
                       std::make_shared<PrimitivePartitionRule>(backend, valid, std::move(boundaries),
                                                                std::move(reduced))};
}

PartitionSpec MakeOpPredicateSpec(const SupportDeclaration& declaration, const SubGraphConfig& config) {
  Check(static_cast<bool>(declaration.supports_op),
        "backend '" + declaration.backend + "' declares no op predicate");
  SupportDeclaration op_predicate_only = declaration;
  op_predicate_only.patterns.clear();
  op_predicate_only.fuses_like_fuse_ops = false;
  return MakePartitionSpec(op_predicate_only, config);
}

PartitionSpec MakeCodeGeneratorSpec(const std::string& backend, const SubGraphConfig& config) {
  return MakePartitionSpec(SupportDeclaration{backend, {}, {}, true}, config);
}

PartitionSpec MakeHostSpec() { return PartitionSpec{"host", "host", std::make_shared<HostPartitionRule>("host")}; }

}  // namespace collage
