// Between numpy arrays and the public API's tensors. An array of the parameter's dtype in C
// order is borrowed (its buffer goes to the runtime as it is); any other layout is copied into
// C order first, which copies() counts. Outputs become arrays over the runtime's own buffers,
// which the arrays keep alive: nothing is copied either way.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>

#include "collage/tensor.h"

namespace collage::python {

// The array for `name` as a tensor of `expected` element type. A dtype other than the expected
// one is a UsageError naming the input and both types (nothing is converted silently). `keep`
// receives the array whose buffer the tensor borrows, for the caller to hold during the run.
api::Tensor TensorFromArray(const pybind11::handle& value, const std::string& name, api::ElementType expected,
                            pybind11::object& keep);

pybind11::array ArrayFromTensor(const api::Tensor& tensor);

// Arrays copied into C order so far (a test hook: nothing is copied for C-ordered arrays).
size_t copies();

}  // namespace collage::python
