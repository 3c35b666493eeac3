// Moves transposes past the element-wise ops they feed, toward the function's results, where
// a transpose meeting its inverse disappears.
//
//   f(transpose(x, p), transpose(y, p), s)      ->  transpose(f(x, y, s), p)
//   nn.bias_add(transpose(x, p), b, axis=a)     ->  transpose(nn.bias_add(x, b, axis=p[a]), p)
//   transpose(transpose(x, p), q)               ->  transpose(x, p∘q), or x when that is the identity
//   nn.squeeze_excitation(transpose(x, [0, 3, 1, 2]), ...)   (layout "NCHW")
//       ->  transpose(nn.squeeze_excitation(x, ..., layout="NHWC"), [0, 3, 1, 2])
//
// f is an element-wise or broadcasting op whose attributes name no axis or shape; every
// operand of the result's rank is a transpose by the same p, and the others (s) hold a
// single value. A partition read and written channels-last but computed in the plain layout
// (WithPlainBody) has a transpose after every parameter and before every result: through a
// chain of element-wise ops (and squeeze-and-excitation) they now cancel, and a fusing code
// generator writes one loop over contiguous memory instead of one whose every index goes
// through the permutation.
#pragma once

#include "ir/expr.h"

namespace collage {

// `function` (type-checked) with its transposes sunk as above; returned type-checked. A
// transpose that still has users it cannot move past stays for them.
Function SinkTransposes(const Function& function);

}  // namespace collage
