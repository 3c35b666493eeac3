#include "numpy_tensors.h"

#include <atomic>
#include <memory>

#include "collage/error.h"

namespace py = pybind11;

namespace collage::python {
namespace {

std::atomic<size_t> copied_arrays{0};

py::dtype DtypeOf(api::ElementType type) {
  switch (type) {
    case api::ElementType::kFloat32: return py::dtype("float32");
    case api::ElementType::kFloat16: return py::dtype("float16");
    case api::ElementType::kBFloat16: return py::dtype("uint16");  // numpy has no bfloat16: the raw bits
    case api::ElementType::kInt8: return py::dtype("int8");
    case api::ElementType::kUInt8: return py::dtype("uint8");
    case api::ElementType::kInt32: return py::dtype("int32");
    case api::ElementType::kInt64: return py::dtype("int64");
    case api::ElementType::kBool: return py::dtype("bool");
    case api::ElementType::kFloat64: return py::dtype("float64");
    case api::ElementType::kInt16: return py::dtype("int16");
    case api::ElementType::kUInt16: return py::dtype("uint16");
    case api::ElementType::kUInt32: return py::dtype("uint32");
    case api::ElementType::kUInt64: return py::dtype("uint64");
  }
  throw UsageError("unknown element type");
}

std::string TypeOfArray(const py::array& array) {
  std::string shape;
  for (py::ssize_t axis = 0; axis < array.ndim(); ++axis) {
    shape += (axis == 0 ? "" : ", ") + std::to_string(array.shape(axis));
  }
  return "numpy array of shape (" + shape + ") and dtype " + py::str(array.dtype()).cast<std::string>();
}

}  // namespace

api::Tensor TensorFromArray(const py::handle& value, const std::string& name, api::ElementType expected,
                            py::object& keep) {
  if (!py::isinstance<py::array>(value)) {
    throw UsageError("input '" + name + "' is a " + py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                     ", not a numpy array");
  }
  py::array array = py::reinterpret_borrow<py::array>(value);
  if (!array.dtype().equal(DtypeOf(expected))) {
    throw UsageError("input '" + name + "' is a " + TypeOfArray(array) + ", but the model expects " +
                     std::string(api::ElementTypeName(expected)) + " (" +
                     py::str(DtypeOf(expected)).cast<std::string>() + "); convert it with .astype()");
  }
  if (!(array.flags() & py::array::c_style)) {
    array = py::array::ensure(array, py::array::c_style | py::array::forcecast);
    ++copied_arrays;
  }
  std::vector<int64_t> shape(array.shape(), array.shape() + array.ndim());
  keep = array;
  return api::Tensor::Borrow(expected, std::move(shape), const_cast<void*>(array.data()));
}

py::array ArrayFromTensor(const api::Tensor& tensor) {
  auto owner = std::make_unique<api::Tensor>(tensor);
  const void* data = owner->data();
  py::capsule keep_alive(owner.release(), [](void* held) { delete static_cast<api::Tensor*>(held); });
  std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
  return py::array(DtypeOf(tensor.element_type()), shape, data, keep_alive);
}

size_t copies() { return copied_arrays.load(); }

}  // namespace collage::python
