// The greedy placement of a whole model: classic
// BYOC partitioning over the given backends in priority order, then every op call none of
// them takes goes to the universal fallback, so the whole model runs on compiled partitions
// and nothing is left on the host but tuples, projections and constants.
//
// Backends are described to the partitioner by their SupportDeclarations; a backend that
// runs every op (Backend::runs_every_op) is declared to support every op call, wherever it is
// in the list. The fallback, when not listed, comes last.
#pragma once

#include <vector>

#include "backend/backend.h"
#include "ir/module.h"

namespace collage {

// Throws Error when `fallback` does not run every op.
Module PlaceGreedy(const Module& module, const std::vector<BackendPtr>& backends_in_priority_order,
                   const BackendPtr& fallback);

// The same with the backends named by `names` and the registry's universal fallback.
Module PlaceGreedy(const Module& module, const std::vector<std::string>& names, const BackendRegistry& registry);

}  // namespace collage
