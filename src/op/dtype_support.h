// The families of element types an op accepts (floating point, integer, bool), shared by the
// type relations, which reject other dtypes with a TypeError, and the reference kernels, which
// guard against them with an Error.
#pragma once

#include <string>

#include "ir/type.h"
#include "support/dtype.h"

namespace collage {

struct DTypeSupport {
  bool floating_point = false;
  bool integer = false;
  bool boolean = false;

  bool Accepts(DType dtype) const;
  // "floating point or integer", for messages.
  std::string Describe() const;
};

inline constexpr DTypeSupport kFloatDTypes{true, false, false};
inline constexpr DTypeSupport kNumericDTypes{true, true, false};
inline constexpr DTypeSupport kIntegerDTypes{false, true, false};
inline constexpr DTypeSupport kBoolDTypes{false, false, true};
inline constexpr DTypeSupport kAllDTypes{true, true, true};

// Throws TypeError("<name> must be <families>, got <dtype>") unless `support` accepts the dtype.
void ExpectDTypeSupported(const DTypeSupport& support, const TensorTypeNode& type, const std::string& name);
// Throws Error("<op_name>: reference kernel does not support dtype <dtype>") unless accepted.
void CheckKernelDType(const DTypeSupport& support, DType dtype, const std::string& op_name);

}  // namespace collage
