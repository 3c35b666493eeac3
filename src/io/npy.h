// The .npy array format of numpy (numpy.lib.format), versions 1.0, 2.0 and 3.0:
//   "\x93NUMPY" major minor header_length header data
// where the header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// and the data is the raw little-endian, C-order (row-major) element bytes.
//
// Supported dtypes, one per DType except bf16 (numpy has none):
//   <f4 f32, <f2 f16, |i1 i8, |u1 u8, <i4 i32, <i8 i64, |b1 bool.
// Fortran order, big-endian data, object and structured dtypes are rejected with Errors.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "support/dtype.h"
#include "support/shape.h"
#include "support/tensor.h"

namespace collage {

// Decodes a whole .npy file. `context` (e.g. "x.npz: entry 'a.npy'") prefixes error messages.
Tensor DecodeNpy(std::span<const std::byte> bytes, const std::string& context);

// The magic, version and padded header for an array; the array's raw bytes follow it.
// Version 1.0 unless the header needs more than 65535 bytes. Throws Error (prefixed with
// `context`) for bf16.
std::string EncodeNpyHeader(DType dtype, const Shape& shape, const std::string& context);

// The numpy dtype string of `dtype` ("<f4", "|u1", ...); throws Error for bf16.
std::string NumpyDTypeString(DType dtype, const std::string& context);

}  // namespace collage
