#include "ir/type_inference.h"
#include "pass/standard_passes.h"

namespace collage {

Pass InferTypePass() {
  return Pass::FunctionPass({"InferType", 0}, [](const Function& function, const Module&, const PassContext&) {
    InferType(function);
    return function;
  });
}

}  // namespace collage
