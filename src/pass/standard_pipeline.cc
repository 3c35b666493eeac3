#include "pass/standard_passes.h"

namespace collage {

Pass StandardPipeline() {
  return Pass::Sequential({InferTypePass(), InlinePrimitiveGroups(), SimplifyInference(), FoldPadding(), FoldConstant(),
                           EliminateCommonSubexpr(), DeadCodeElimination(), InferTypePass()},
                          "StandardPipeline");
}

}  // namespace collage
