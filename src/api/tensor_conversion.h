// Between the public API's tensors and element types and the library's own.
#pragma once

#include "collage/tensor.h"
#include "ir/expr.h"
#include "ir/type.h"
#include "support/tensor.h"

namespace collage::api {

DType ToDType(ElementType type);
ElementType FromDType(DType dtype);

// The same buffer, borrowed: nothing is copied.
collage::Tensor ToLibraryTensor(const Tensor& tensor);
// The same buffer, kept alive by the returned tensor: nothing is copied.
Tensor FromLibraryTensor(const collage::Tensor& tensor);

// The name, element type and shape of a tensor-typed parameter; throws UsageError for a
// parameter of another type (a tuple), which the API cannot bind.
TensorInfo DescribeParameter(const Var& parameter);

}  // namespace collage::api
