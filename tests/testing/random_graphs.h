// Seeded random dataflow graphs for property tests (partitioning, search).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/shape.h"

namespace collage::testing {

// The ops random graphs are drawn from: unary and binary elementwise ops on one shape.
const std::vector<std::string>& RandomGraphUnaryOps();
const std::vector<std::string>& RandomGraphBinaryOps();

// A function of one or two f32 parameters of `shape` with `num_ops` op calls, each taking one
// or two earlier nodes chosen at random (so nodes fan out and reconverge); the result is a
// tuple of every node nobody uses (or the single such node).
Function MakeRandomDag(uint64_t seed, int num_ops, const Shape& shape = {2, 3});

// A type-checked function of one to three parameters with about `num_ops` op calls reaching the
// edge cases MakeRandomDag does not: parameters of several shapes, among them rank-0 and
// zero-extent ones; binary ops whose operands broadcast (against other nodes, scalar constants
// and constants with unit dimensions); reshape, transpose, split and concatenate; integer
// (i32) arithmetic on negative values (cast from the floats, or constants); comparisons and
// where on booleans; and rounding of exact halves. The result is a tuple of every node nobody
// uses (or the single such node). Products take constants in [-3, 3] only, so values stay
// finite for graphs of up to about 60 ops.
Function MakeVariedRandomDag(uint64_t seed, int num_ops);

}  // namespace collage::testing
