// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace collage {

enum class DType : uint8_t { kF32, kF16, kBF16, kI8, kU8, kI32, kI64, kBool, kF64, kI16, kU16, kU32, kU64 };

// Short name used by the text format: f32, f16, bf16, i8, u8, i32, i64, bool, f64, i16, u16, u32, u64.
std::string_view DTypeName(DType dtype);
// Inverse of DTypeName; nullopt for an unknown name.
std::optional<DType> ParseDType(std::string_view name);
size_t DTypeSize(DType dtype);
bool IsFloatingPoint(DType dtype);
bool IsInteger(DType dtype);
// Every dtype, in the enum's order.
const std::vector<DType>& AllDTypes();
// The values of an integer or bool dtype that the reference kernels' int64 compute type holds:
// the dtype's own range, except u64, whose elements above 2^63 - 1 the kernels refuse.
std::pair<int64_t, int64_t> Int64Range(DType dtype);

// Maps a C++ element type to its DType (only for the types kernels compute in).
template <typename T>
constexpr DType DTypeOf();
template <>
constexpr DType DTypeOf<float>() { return DType::kF32; }
template <>
constexpr DType DTypeOf<double>() { return DType::kF64; }
template <>
constexpr DType DTypeOf<int16_t>() { return DType::kI16; }
template <>
constexpr DType DTypeOf<uint16_t>() { return DType::kU16; }
template <>
constexpr DType DTypeOf<uint32_t>() { return DType::kU32; }
template <>
constexpr DType DTypeOf<uint64_t>() { return DType::kU64; }
template <>
constexpr DType DTypeOf<int8_t>() { return DType::kI8; }
template <>
constexpr DType DTypeOf<uint8_t>() { return DType::kU8; }
template <>
constexpr DType DTypeOf<int32_t>() { return DType::kI32; }
template <>
constexpr DType DTypeOf<int64_t>() { return DType::kI64; }
template <>
constexpr DType DTypeOf<bool>() { return DType::kBool; }

// IEEE half and bfloat16 conversions (round to nearest even).
uint16_t FloatToHalf(float value);
float HalfToFloat(uint16_t bits);
uint16_t FloatToBFloat16(float value);
float BFloat16ToFloat(uint16_t bits);

}  // namespace collage
