// The layout a partition function exchanges its rank-4 parameters and results in.
//
// A Primitive function may carry the BoundaryLayout attribute (support/tensor_format.h names
// the layouts); without it the boundary is plain. A backend's executable then reads every
// rank-4 input and writes every rank-4 output in that layout (buffers of PhysicalShape), and
// tensors of other ranks plainly. Backends declare the layouts they accept in their
// SupportDeclaration; the partitioner offers each candidate in each of them.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/tensor_format.h"

namespace collage {

// The boundary layout a Primitive function's attributes name; throws Error naming the
// attribute's value when it is not a layout.
Layout BoundaryLayoutOf(const Attrs& attrs);
Layout BoundaryLayoutOf(const Function& function);

// `function`'s boundary layout; throws Error "<backend>: boundary layout <name> is not
// supported" when it is not one of `declared`.
Layout DeclaredBoundaryLayoutOf(const Function& function, const std::string& backend,
                                const std::vector<Layout>& declared);

// `function` with its BoundaryLayout attribute set (removed for plain).
Function WithBoundaryLayout(const Function& function, Layout layout);

// The buffer shapes of a function's flattened parameters / results under its boundary layout.
std::vector<Shape> BoundaryParameterShapes(const Function& function);
std::vector<Shape> BoundaryResultShapes(const Function& function);

// For backends that compute only in the plain layout: a type-checked function equivalent to
// `function` whose parameters and results are the physical buffers of its boundary layout,
// converted by transposes at the edges (which fusing code generators fold into the first and
// last kernels); `function` itself when the boundary is plain. The result carries no
// BoundaryLayout attribute. Throws Error for a channel-blocked boundary.
Function WithPlainBody(const Function& function);

}  // namespace collage
