#include "op/all_ops.h"

namespace collage {

void RegisterAllOps(OpRegistry& registry) {
  RegisterElementwiseOps(registry);
  RegisterReductionOps(registry);
  RegisterTransformOps(registry);
  RegisterNNOps(registry);
  RegisterConvolutionOps(registry);
  RegisterDenseOps(registry);
  RegisterNormalizationOps(registry);
  RegisterPoolingOps(registry);
  RegisterImageOps(registry);
  RegisterIndexingOps(registry);
  RegisterOrderingOps(registry);
  RegisterEinsumOps(registry);
}

}  // namespace collage
