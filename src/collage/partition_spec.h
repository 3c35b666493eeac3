// Phase 1: partition specs built from what backends declare.
//
// MakePartitionSpec composes the partitioner's rule trees from a SupportDeclaration:
//   pattern table only:          Primitive(OnlyValid(Union(Composite(DFPattern) per label)), any depth)
//   op predicate (+ patterns):   Primitive(OnlyValid(Combine(Union(OpPredicate, patterns),
//                                                            join anything)))
//   FuseOps-like code generator: Primitive(OnlyValid(Combine(Union(OpCallByKind or
//                                                            OpPredicate, patterns), FuseOps rules)))
// where "patterns" is the Union of Composite(DFPattern) per label, so a Primitive partition
// may call Composite functions of the backend's table. A Union of one rule is left out. Each
// pattern match alone is also offered without the depth bound (OnlyValid(patterns) with
// max_depth 0, in a Union with the above): the bound limits what combining builds, not the
// size of a backend's own pattern.
//   host:                        Host (tuples, projections and constants left to the host)
#pragma once

#include "declaration/support_declaration.h"
#include "collage/partition_rule.h"

namespace collage {

// Limits of the sub-graphs a spec proposes: one exit, no taps, at most 6 nodes deep.
SubGraphConfig DefaultSubGraphConfig();

// Throws Error when the declaration declares nothing, or a pattern label does not start
// with "<backend>.".
PartitionSpec MakePartitionSpec(const SupportDeclaration& declaration,
                                const SubGraphConfig& config = DefaultSubGraphConfig());
// MakePartitionSpec of the declaration's op predicate alone.
PartitionSpec MakeOpPredicateSpec(const SupportDeclaration& declaration,
                                  const SubGraphConfig& config = DefaultSubGraphConfig());
// A code generator running any FuseOps-style group of any op.
PartitionSpec MakeCodeGeneratorSpec(const std::string& backend, const SubGraphConfig& config = DefaultSubGraphConfig());
PartitionSpec MakeHostSpec();

// Union(Composite(label, DFPattern(label)) per entry), named "<backend>.patterns".
PartitionRulePtr MakePatternTableRule(const SupportDeclaration& declaration);

}  // namespace collage
