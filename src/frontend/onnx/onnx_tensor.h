// Conversion of ONNX element types and TensorProtos to collage DTypes and Tensors.
//
// Each supported element type maps to the DType of the same width and kind (DOUBLE to f64,
// UINT64 to u64, ...), so nothing is narrowed; the others (STRING, complex, ...) are an error. Data may come from raw_data or from the typed repeated fields; its size is checked
// against the dimensions before anything is allocated.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

#include "support/dtype.h"
#include "support/tensor.h"

namespace collage {

// The DType for an ONNX TensorProto::DataType value; throws Error naming it when unsupported.
DType DTypeFromOnnx(int32_t onnx_type);
// ONNX's name of a TensorProto::DataType value ("FLOAT", "INT64", ...), or the number.
std::string OnnxTypeName(int32_t onnx_type);

// Decodes a TensorProto; `what` names it in error messages (e.g. "initializer 'w'").
// Throws Error when the data is missing, external, of the wrong size, or larger than
// `max_bytes` once decoded.
Tensor TensorFromOnnx(const onnx::TensorProto& proto, const std::string& what, int64_t max_bytes);

// Number of elements of `shape`; throws Error naming `what` for a negative dimension or
// when the count or its size in bytes (at `element_bytes` each) would exceed `max_bytes`.
int64_t CheckedNumElements(const Shape& shape, int64_t element_bytes, int64_t max_bytes, const std::string& what);

}  // namespace collage
