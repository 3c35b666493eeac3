// The checks a placement request must pass before any work, shared by the `collage` tool and
// the public API so that both refuse the same requests with the same one-line messages (worded
// after the tool's options). Each throws collage::UsageError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collage/cost_model.h"
#include "collage/search_level.h"
#include "pipeline/precision_request.h"

namespace collage {

// The most worker threads accepted per hardware thread: far more threads than cores only makes
// every backend's pool wait on the others, and tuning with them ends in time-outs.
inline constexpr uint64_t kThreadsPerHardwareThread = 4;

// The machine's hardware threads (at least 1).
uint64_t HardwareThreads();
uint64_t MostThreads();
// "at most 4 per hardware thread; this machine has 2".
std::string ThreadsBoundReason();

// "--threads expects an integer in [1, 8] (at most 4 per hardware thread; ...), got '9'" when
// `threads` is outside [1, MostThreads()].
void CheckThreads(int64_t threads);

// Every name is a backend of BackendRegistry::Global(), listed once: "unknown backend 'x'
// (available: a, b)" or "backend 'a' listed twice in --backends"; an empty list is refused too.
void CheckBackendNames(const std::vector<std::string>& names);

// The cost database and the graph-level search need measured costs.
void CheckCostOptions(CostModel cost_model, SearchLevel search, bool database_given);

// --precision auto chooses reduced precisions by measured cost: "--precision auto chooses
// precisions by measured cost: it needs --cost measured".
void CheckPrecisionOptions(PrecisionMode mode, CostModel cost_model);
// "--tolerance expects a number in (0, 1000000], got '-1'" (`text`: the value as given; a
// malformed one is NaN).
void CheckTolerance(double tolerance, const std::string& text);
// The same, naming the value as "%g" writes it.
void CheckTolerance(double tolerance);

}  // namespace collage
