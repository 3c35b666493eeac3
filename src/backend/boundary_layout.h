// The layouts a partition function exchanges its rank-4 parameters and results in.
//
// A Primitive function may carry the BoundaryLayout attribute: a layout name
// (support/tensor_format.h) for both sides, or "<parameters>><results>" (e.g. "plain>nchw8c")
// for a partition that reads its rank-4 parameters in one layout and writes its rank-4 results
// in another; without it the boundary is plain. A backend's executable then reads and writes
// exactly those buffers (of PhysicalShape), and tensors of other ranks plainly. Backends
// declare the layouts they accept in their SupportDeclaration; the partitioner offers each
// candidate in each of them.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/partition_layouts.h"
#include "support/tensor_format.h"

namespace collage {

// The transpose axes from a rank-4 value's plain (NCHW) layout to channels-last (NHWC), and back.
inline const std::vector<int64_t> kToChannelsLastAxes = {0, 2, 3, 1};
inline const std::vector<int64_t> kFromChannelsLastAxes = {0, 3, 1, 2};

// The boundary a Primitive function's attributes name; throws Error naming the attribute's
// value when it is not one.
PartitionLayouts BoundaryLayoutsOf(const Attrs& attrs);
PartitionLayouts BoundaryLayoutsOf(const Function& function);

// `function`'s boundary; throws Error "<backend>: boundary layout <name> is not supported"
// unless both of its layouts are `declared` and, when they differ, the pair is in `mixed`.
PartitionLayouts DeclaredBoundaryLayoutsOf(const Function& function, const std::string& backend,
                                           const std::vector<Layout>& declared,
                                           const std::vector<PartitionLayouts>& mixed = {});

// `function` with its BoundaryLayout attribute set (removed for a plain boundary).
Function WithBoundaryLayouts(const Function& function, const PartitionLayouts& layouts);

// The buffer shapes of a function's flattened parameters / results under its boundary.
std::vector<Shape> BoundaryParameterShapes(const Function& function);
std::vector<Shape> BoundaryResultShapes(const Function& function);

// For backends that compute only in the plain layout: a type-checked function equivalent to
// `function` whose parameters and results are the physical buffers of its boundary, converted
// by transposes at the edges (which fusing code generators fold into the first and last
// kernels, or cancel after SinkTransposes); `function` itself when the boundary is plain. The
// result carries no BoundaryLayout attribute. Throws Error for a channel-blocked side.
Function WithPlainBody(const Function& function);

}  // namespace collage
