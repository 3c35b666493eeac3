#include "op/all_ops.h"
#include "op/op_registry.h"

namespace collage {

void RegisterImageOps(OpRegistry& registry) { (void)registry; }

}  // namespace collage
