#include "frontend/onnx/onnx_tensor.h"

#include <cstring>
#include <limits>

#include "support/error.h"

namespace collage {
namespace {

using onnx::TensorProto;

void CheckCount(int64_t actual, int64_t expected, const std::string& field, const std::string& what) {
  if (actual != expected) {
    throw Error(what + ": " + field + " holds " + std::to_string(actual) + " values but the dimensions need " +
                std::to_string(expected));
  }
}

// Copies the typed repeated field that holds this element type into `tensor`.
void CopyTypedFields(const TensorProto& proto, Tensor& tensor, const std::string& what) {
  const int64_t count = tensor.NumElements();
  switch (proto.data_type()) {
    case TensorProto::FLOAT:
      CheckCount(proto.float_data_size(), count, "float_data", what);
      for (int64_t i = 0; i < count; ++i) tensor.data<float>()[i] = proto.float_data(static_cast<int>(i));
      return;
    case TensorProto::DOUBLE:
      CheckCount(proto.double_data_size(), count, "double_data", what);
      for (int64_t i = 0; i < count; ++i) tensor.data<double>()[i] = proto.double_data(static_cast<int>(i));
      return;
    case TensorProto::UINT32:
      CheckCount(proto.uint64_data_size(), count, "uint64_data", what);
      for (int64_t i = 0; i < count; ++i) {
        tensor.data<uint32_t>()[i] = static_cast<uint32_t>(proto.uint64_data(static_cast<int>(i)));
      }
      return;
    case TensorProto::UINT64:
      CheckCount(proto.uint64_data_size(), count, "uint64_data", what);
      for (int64_t i = 0; i < count; ++i) tensor.data<uint64_t>()[i] = proto.uint64_data(static_cast<int>(i));
      return;
    case TensorProto::INT64:
      CheckCount(proto.int64_data_size(), count, "int64_data", what);
      for (int64_t i = 0; i < count; ++i) tensor.data<int64_t>()[i] = proto.int64_data(static_cast<int>(i));
      return;
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16: {
      CheckCount(proto.int32_data_size(), count, "int32_data", what);
      auto* bits = static_cast<uint16_t*>(tensor.raw_data());
      for (int64_t i = 0; i < count; ++i) bits[i] = static_cast<uint16_t>(proto.int32_data(static_cast<int>(i)));
      return;
    }
    default: {  // INT32, INT16, UINT16, INT8, UINT8, BOOL: one int32 entry per element, converted modulo 2^bits
      CheckCount(proto.int32_data_size(), count, "int32_data", what);
      auto* bytes = static_cast<std::byte*>(tensor.raw_data());
      const size_t size = DTypeSize(tensor.dtype());
      for (int64_t i = 0; i < count; ++i) {
        const int32_t value = proto.int32_data(static_cast<int>(i));
        const int32_t stored = tensor.dtype() == DType::kBool ? (value != 0) : value;
        std::memcpy(bytes + i * static_cast<int64_t>(size), &stored, size);  // little-endian: the low bytes
      }
      return;
    }
  }
}

// The size of raw_data has been checked against the dimensions.
void CopyRawData(const TensorProto& proto, Tensor& tensor) {
  const std::string& raw = proto.raw_data();
  const int64_t count = tensor.NumElements();
  const int64_t expected = count * static_cast<int64_t>(DTypeSize(tensor.dtype()));
  if (expected > 0) std::memcpy(tensor.raw_data(), raw.data(), static_cast<size_t>(expected));
  if (tensor.dtype() == DType::kBool) {
    auto* values = static_cast<uint8_t*>(tensor.raw_data());
    for (int64_t i = 0; i < count; ++i) values[i] = values[i] != 0;
  }
}

}  // namespace

DType DTypeFromOnnx(int32_t onnx_type) {
  switch (onnx_type) {
    case TensorProto::FLOAT:
      return DType::kF32;
    case TensorProto::DOUBLE:
      return DType::kF64;
    case TensorProto::FLOAT16:
      return DType::kF16;
    case TensorProto::BFLOAT16:
      return DType::kBF16;
    case TensorProto::INT8:
      return DType::kI8;
    case TensorProto::UINT8:
      return DType::kU8;
    case TensorProto::INT16:
      return DType::kI16;
    case TensorProto::UINT16:
      return DType::kU16;
    case TensorProto::INT32:
      return DType::kI32;
    case TensorProto::UINT32:
      return DType::kU32;
    case TensorProto::UINT64:
      return DType::kU64;
    case TensorProto::INT64:
      return DType::kI64;
    case TensorProto::BOOL:
      return DType::kBool;
    default:
      throw Error("unsupported element type " + OnnxTypeName(onnx_type) +
                   " (expected FLOAT, DOUBLE, FLOAT16, BFLOAT16, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64 or BOOL)");
  }
}

std::string OnnxTypeName(int32_t onnx_type) {
  if (TensorProto::DataType_IsValid(onnx_type)) {
    return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(onnx_type));
  }
  return std::to_string(onnx_type);
}

int64_t CheckedNumElements(const Shape& shape, int64_t element_bytes, int64_t max_bytes, const std::string& what) {
  int64_t count = 1;
  const int64_t max_count = max_bytes / std::max<int64_t>(element_bytes, 1);
  for (int64_t dim : shape) {
    if (dim < 0) throw Error(what + ": negative dimension in shape " + ShapeToString(shape));
    if (dim != 0 && count > max_count / dim) {
      throw Error(what + ": shape " + ShapeToString(shape) + " is larger than the limit of " +
                  std::to_string(max_bytes) + " bytes");
    }
    count *= dim;
  }
  // A zero dimension after a huge one: the product is 0, which is fine.
  return count;
}

Tensor TensorFromOnnx(const TensorProto& proto, const std::string& what, int64_t max_bytes) {
  if (proto.data_location() == TensorProto::EXTERNAL) {
    throw Error(what + ": stored as external data, which is not supported (save the model with its data inside)");
  }
  if (proto.has_segment()) throw Error(what + ": segmented tensors are not supported");
  DType dtype;
  try {
    dtype = DTypeFromOnnx(proto.data_type());
  } catch (const Error& error) {
    throw Error(what + ": " + error.what());
  }
  Shape shape(proto.dims().begin(), proto.dims().end());
  const int64_t element_bytes = static_cast<int64_t>(DTypeSize(dtype));
  // The data is in the file, so a legitimate initializer never exceeds what protobuf could hold.
  const int64_t limit = std::max<int64_t>(max_bytes, std::numeric_limits<int32_t>::max());
  CheckedNumElements(shape, element_bytes, limit, what);
  // Check the stored size before allocating.
  if (!proto.has_raw_data()) {
    int64_t stored = 0;
    switch (proto.data_type()) {
      case TensorProto::FLOAT:
        stored = proto.float_data_size();
        break;
      case TensorProto::DOUBLE:
        stored = proto.double_data_size();
        break;
      case TensorProto::INT64:
        stored = proto.int64_data_size();
        break;
      case TensorProto::UINT32:
      case TensorProto::UINT64:
        stored = proto.uint64_data_size();
        break;
      default:
        stored = proto.int32_data_size();
        break;
    }
    CheckCount(stored, NumElements(shape), "the typed data field", what);
  } else {
    const int64_t expected = NumElements(shape) * element_bytes;
    if (static_cast<int64_t>(proto.raw_data().size()) != expected) {
      throw Error(what + ": raw_data has " + std::to_string(proto.raw_data().size()) +
                  " bytes but the dimensions need " + std::to_string(expected));
    }
  }
  Tensor tensor = Tensor::Zeros(dtype, std::move(shape));
  if (proto.has_raw_data()) {
    CopyRawData(proto, tensor);
  } else {
    CopyTypedFields(proto, tensor, what);
  }
  return tensor;
}

}  // namespace collage
