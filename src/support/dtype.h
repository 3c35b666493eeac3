// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace collage {

enum class DType : uint8_t { kF32, kF16, kBF16, kI8, kU8, kI32, kI64, kBool };

// Short name used by the text format: f32, f16, bf16, i8, u8, i32, i64, bool.
std::string_view DTypeName(DType dtype);
// Inverse of DTypeName; nullopt for an unknown name.
std::optional<DType> ParseDType(std::string_view name);
size_t DTypeSize(DType dtype);
bool IsFloatingPoint(DType dtype);
bool IsInteger(DType dtype);

// Maps a C++ element type to its DType (only for the types kernels compute in).
template <typename T>
constexpr DType DTypeOf();
template <>
constexpr DType DTypeOf<float>() { return DType::kF32; }
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
