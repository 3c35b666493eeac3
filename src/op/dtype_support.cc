#include "op/dtype_support.h"

#include <vector>

#include "support/error.h"

namespace collage {

bool DTypeSupport::Accepts(DType dtype) const {
  if (IsFloatingPoint(dtype)) return floating_point;
  if (IsInteger(dtype)) return integer;
  return boolean && dtype == DType::kBool;
}

std::string DTypeSupport::Describe() const {
  std::vector<std::string> families;
  if (floating_point) families.push_back("floating point");
  if (integer) families.push_back("integer");
  if (boolean) families.push_back("bool");
  std::string text;
  for (size_t i = 0; i < families.size(); ++i) {
    if (i > 0) text += i + 1 == families.size() ? " or " : ", ";
    text += families[i];
  }
  return text;
}

void ExpectDTypeSupported(const DTypeSupport& support, const TensorTypeNode& type, const std::string& name) {
  if (!support.Accepts(type.dtype)) {
    throw TypeError(name + " must be " + support.Describe() + ", got " + std::string(DTypeName(type.dtype)));
  }
}

void CheckKernelDType(const DTypeSupport& support, DType dtype, const std::string& op_name) {
  Check(support.Accepts(dtype),
        op_name + ": reference kernel does not support dtype " + std::string(DTypeName(dtype)) + " (expected " +
            support.Describe() + ")");
}

}  // namespace collage
