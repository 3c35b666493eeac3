#include "op/all_ops.h"
#include "op/op_registry.h"

namespace collage {

void RegisterElementwiseOps(OpRegistry& registry) { (void)registry; }

}  // namespace collage
