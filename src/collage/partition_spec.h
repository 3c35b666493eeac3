// Phase 1: partition specs built from what backends declare (DESIGN §8, RFC "Phase 1").
//
//   operator-predicate backend:  Primitive(OnlyValid(Combine(OpPredicate, join anything)))
//   code generator (FuseOps):    Primitive(OnlyValid(Combine(OpCallByKind, FuseOps-like rules)))
//   host:                        Host (tuples, projections and constants left to the host)
#pragma once

#include "backend/support_declaration.h"
#include "collage/partition_rule.h"

namespace collage {

// Limits of the sub-graphs a spec proposes: one exit, no taps, at most 6 nodes deep.
SubGraphConfig DefaultSubGraphConfig();

PartitionSpec MakeOpPredicateSpec(const SupportDeclaration& declaration,
                                  const SubGraphConfig& config = DefaultSubGraphConfig());
PartitionSpec MakeCodeGeneratorSpec(const std::string& backend, const SubGraphConfig& config = DefaultSubGraphConfig());
PartitionSpec MakeHostSpec();

}  // namespace collage
