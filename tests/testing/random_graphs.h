// Seeded random dataflow graphs for property tests (partitioning, search).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/expr.h"

namespace collage::testing {

// The ops random graphs are drawn from: unary and binary elementwise ops on one shape.
const std::vector<std::string>& RandomGraphUnaryOps();
const std::vector<std::string>& RandomGraphBinaryOps();

// A function of one or two [2, 3] f32 parameters with `num_ops` op calls, each taking one or
// two earlier nodes chosen at random (so nodes fan out and reconverge); the result is a tuple
// of every node nobody uses (or the single such node).
Function MakeRandomDag(uint64_t seed, int num_ops);

}  // namespace collage::testing
