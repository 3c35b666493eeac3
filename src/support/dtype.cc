#include "support/dtype.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace collage {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  size_t size;
};

constexpr std::array<DTypeInfo, 13> kDTypes = {{
    {DType::kF32, "f32", 4},
    {DType::kF16, "f16", 2},
    {DType::kBF16, "bf16", 2},
    {DType::kI8, "i8", 1},
    {DType::kU8, "u8", 1},
    {DType::kI32, "i32", 4},
    {DType::kI64, "i64", 8},
    {DType::kBool, "bool", 1},
    {DType::kF64, "f64", 8},
    {DType::kI16, "i16", 2},
    {DType::kU16, "u16", 2},
    {DType::kU32, "u32", 4},
    {DType::kU64, "u64", 8},
}};

const DTypeInfo& Info(DType dtype) { return kDTypes[static_cast<size_t>(dtype)]; }

}  // namespace

std::string_view DTypeName(DType dtype) { return Info(dtype).name; }

std::optional<DType> ParseDType(std::string_view name) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.name == name) return info.dtype;
  }
  return std::nullopt;
}

size_t DTypeSize(DType dtype) { return Info(dtype).size; }

bool IsFloatingPoint(DType dtype) {
  return dtype == DType::kF32 || dtype == DType::kF16 || dtype == DType::kBF16 || dtype == DType::kF64;
}

bool IsInteger(DType dtype) {
  return dtype == DType::kI8 || dtype == DType::kU8 || dtype == DType::kI16 || dtype == DType::kU16 ||
         dtype == DType::kI32 || dtype == DType::kU32 || dtype == DType::kI64 || dtype == DType::kU64;
}

const std::vector<DType>& AllDTypes() {
  static const std::vector<DType> all = [] {
    std::vector<DType> dtypes;
    for (const DTypeInfo& info : kDTypes) dtypes.push_back(info.dtype);
    return dtypes;
  }();
  return all;
}

std::pair<int64_t, int64_t> Int64Range(DType dtype) {
  switch (dtype) {
    case DType::kI8: return {std::numeric_limits<int8_t>::min(), std::numeric_limits<int8_t>::max()};
    case DType::kU8: return {0, std::numeric_limits<uint8_t>::max()};
    case DType::kI16: return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    case DType::kU16: return {0, std::numeric_limits<uint16_t>::max()};
    case DType::kI32: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case DType::kU32: return {0, std::numeric_limits<uint32_t>::max()};
    case DType::kU64: return {0, std::numeric_limits<int64_t>::max()};
    case DType::kBool: return {0, 1};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

uint16_t FloatToHalf(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u));
  }
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow
  if (magnitude < 0x38800000u) {  // subnormal half or zero
    float scaled = std::bit_cast<float>(magnitude) * 16777216.0f;  // * 2^24
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float HalfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) {
    float value = static_cast<float>(mantissa) / 16777216.0f;  // mantissa * 2^-24
    return sign ? -value : value;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t FloatToBFloat16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float BFloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

}  // namespace collage
