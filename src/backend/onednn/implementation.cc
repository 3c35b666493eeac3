#include "backend/onednn/implementation.h"

#include <oneapi/dnnl/dnnl_debug.h>

#include "support/error.h"

namespace collage::onednn {

std::string ImplementationName(const dnnl::primitive_desc_base& description) { return description.impl_info_str(); }

std::string ImplementationName(const dnnl::primitive& primitive) {
  const dnnl::primitive_desc_base description(const_cast<dnnl_primitive_desc_t>(primitive.get_primitive_desc()),
                                              /*weak=*/true);
  return ImplementationName(description);
}

bool IsReference(const std::string& implementation_name) { return implementation_name.rfind("ref", 0) == 0; }

bool IsReference(const dnnl::primitive_desc_base& description) { return IsReference(ImplementationName(description)); }

bool IsJit(const std::string& implementation_name) { return implementation_name.rfind("jit", 0) == 0; }

bool IsJit(const dnnl::primitive_desc_base& description) { return IsJit(ImplementationName(description)); }

std::string KindName(const dnnl::primitive& primitive) {
  return dnnl_prim_kind2str(static_cast<dnnl_primitive_kind_t>(primitive.get_kind()));
}

void RefuseReferenceImplementations(const std::vector<Step>& steps, size_t first, const std::string& what) {
  for (size_t s = first; s < steps.size(); ++s) {
    const std::string implementation = ImplementationName(steps[s].primitive);
    if (IsReference(implementation)) {
      throw Error("onednn: slow path: oneDNN runs the " + KindName(steps[s].primitive) + " of " + what +
                  " only in its reference implementation (" + implementation + "); refused");
    }
  }
}

}  // namespace collage::onednn
