#include "io/npy.h"

#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "support/error.h"
#include "support/one_line_text.h"

namespace collage {
namespace {

static_assert(std::endian::native == std::endian::little, ".npy data is read and written as little-endian");

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kPreludeSizeVersion1 = kMagic.size() + 2 + 2;  // magic, version, uint16 length
constexpr size_t kPreludeSizeVersion2 = kMagic.size() + 2 + 4;  // magic, version, uint32 length
constexpr size_t kHeaderAlignment = 64;

struct NumpyDType {
  DType dtype;
  char kind;  // 'f' float, 'i' signed, 'u' unsigned, 'b' bool
  size_t size;
};

constexpr std::array<NumpyDType, 12> kNumpyDTypes = {{
    {DType::kF32, 'f', 4},
    {DType::kF16, 'f', 2},
    {DType::kF64, 'f', 8},
    {DType::kI8, 'i', 1},
    {DType::kU8, 'u', 1},
    {DType::kI16, 'i', 2},
    {DType::kU16, 'u', 2},
    {DType::kI32, 'i', 4},
    {DType::kU32, 'u', 4},
    {DType::kI64, 'i', 8},
    {DType::kU64, 'u', 8},
    {DType::kBool, 'b', 1},
}};

constexpr const char* kSupportedDTypes = "<f4, <f2, <f8, |i1, |u1, <i2, <u2, <i4, <u4, <i8, <u8, |b1";

[[noreturn]] void Fail(const std::string& context, const std::string& message) {
  throw Error(OneLineText(context + ": " + message));
}

std::string DTypeString(const NumpyDType& type) {
  return std::string(1, type.size == 1 ? '|' : '<') + type.kind + std::to_string(type.size);
}

DType ParseDTypeString(const std::string& text, const std::string& context) {
  if (text.size() >= 2 && text[1] == 'O') Fail(context, "object arrays ('" + text + "') are not supported");
  if (text.size() < 3) Fail(context, "unsupported dtype '" + text + "' (supported: " + kSupportedDTypes + ")");
  const char byte_order = text[0];
  const char kind = text[1];
  const std::string size_text = text.substr(2);
  if (byte_order != '<' && byte_order != '>' && byte_order != '|' && byte_order != '=') {
    Fail(context, "unsupported dtype '" + text + "' (supported: " + kSupportedDTypes + ")");
  }
  for (const NumpyDType& type : kNumpyDTypes) {
    if (type.kind != kind || std::to_string(type.size) != size_text) continue;
    if (byte_order == '>' && type.size > 1) {
      Fail(context,
           "big-endian arrays ('" + text + "') are not supported; convert with astype('" + DTypeString(type) + "')");
    }
    return type.dtype;
  }
  Fail(context, "unsupported dtype '" + text + "' (supported: " + kSupportedDTypes + ")");
}

// A value of the header dict: a string, a boolean, an integer or a tuple of integers.
using HeaderValue = std::variant<std::string, bool, int64_t, std::vector<int64_t>>;

// The header text for an error message: printable, on one line, at most 200 characters.
std::string Excerpt(std::string_view text) {
  constexpr size_t kMaxLength = 200;
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.remove_suffix(1);
  std::string excerpt;
  for (char c : text.substr(0, kMaxLength)) excerpt += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > kMaxLength) excerpt += "...";
  return excerpt;
}

// Parses the Python dict literal of a .npy header. Only the literal forms numpy writes are
// accepted: quoted strings without escapes, True/False, non-negative integers and tuples of them.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& context) : text_(text), context_(context) {}

  std::vector<std::pair<std::string, HeaderValue>> ParseDict() {
    std::vector<std::pair<std::string, HeaderValue>> entries;
    Expect('{');
    while (!Consume('}')) {
      std::string key = ParseString();
      Expect(':');
      entries.emplace_back(std::move(key), ParseValue());
      if (!Consume(',')) {
        Expect('}');
        break;
      }
    }
    SkipSpace();
    if (position_ != text_.size()) FailHere("unexpected text after the dict");
    return entries;
  }

 private:
  [[noreturn]] void FailHere(const std::string& message) const {
    Fail(context_, "bad .npy header: " + message + " at character " + std::to_string(position_) + " of \"" +
                       Excerpt(text_) + "\"");
  }
  void SkipSpace() {
    while (position_ < text_.size() && (text_[position_] == ' ' || text_[position_] == '\n' ||
                                        text_[position_] == '\t' || text_[position_] == '\r')) {
      ++position_;
    }
  }
  bool Consume(char c) {
    SkipSpace();
    if (position_ < text_.size() && text_[position_] == c) {
      ++position_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Consume(c)) FailHere(std::string("expected '") + c + "'");
  }
  bool ConsumeWord(std::string_view word) {
    SkipSpace();
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    return true;
  }
  std::string ParseString() {
    SkipSpace();
    if (position_ >= text_.size() || (text_[position_] != '\'' && text_[position_] != '"')) {
      FailHere("expected a quoted string");
    }
    const char quote = text_[position_++];
    const size_t end = text_.find(quote, position_);
    if (end == std::string_view::npos) FailHere("unterminated string");
    std::string value(text_.substr(position_, end - position_));
    if (value.find('\\') != std::string::npos) FailHere("escapes in strings are not supported");
    position_ = end + 1;
    return value;
  }
  int64_t ParseInteger() {
    SkipSpace();
    const size_t start = position_;
    int64_t value = 0;
    while (position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9') {
      const int digit = text_[position_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) FailHere("dimension too large");
      value = value * 10 + digit;
      ++position_;
    }
    if (position_ == start) FailHere("expected a non-negative integer");
    if (position_ < text_.size() && text_[position_] == 'L') ++position_;  // Python 2 long
    return value;
  }
  std::vector<int64_t> ParseTuple() {
    std::vector<int64_t> values;
    while (!Consume(')')) {
      values.push_back(ParseInteger());
      if (!Consume(',')) {
        Expect(')');
        break;
      }
    }
    return values;
  }
  HeaderValue ParseValue() {
    SkipSpace();
    if (ConsumeWord("True")) return true;
    if (ConsumeWord("False")) return false;
    if (Consume('(')) return ParseTuple();
    if (position_ < text_.size() && text_[position_] >= '0' && text_[position_] <= '9') return ParseInteger();
    if (position_ < text_.size() && text_[position_] == '[') {
      Fail(context_, "structured (record) dtypes are not supported");
    }
    return ParseString();
  }

  std::string_view text_;
  const std::string& context_;
  size_t position_ = 0;
};

struct NpyHeader {
  DType dtype = DType::kF32;
  Shape shape;
};

template <typename T>
const T& RequireValue(const std::optional<HeaderValue>& value, const char* key, const char* expected,
                      const std::string& context) {
  if (!value) Fail(context, std::string("bad .npy header: no '") + key + "' key");
  if (!std::holds_alternative<T>(*value)) {
    Fail(context, std::string("bad .npy header: '") + key + "' must be " + expected);
  }
  return std::get<T>(*value);
}

NpyHeader InterpretHeader(std::string_view text, const std::string& context) {
  std::optional<HeaderValue> descr, fortran_order, shape;
  for (auto& [key, value] : HeaderParser(text, context).ParseDict()) {
    std::optional<HeaderValue>* slot = key == "descr"           ? &descr
                                       : key == "fortran_order" ? &fortran_order
                                       : key == "shape"         ? &shape
                                                                : nullptr;
    if (slot == nullptr) Fail(context, "bad .npy header: unexpected key '" + key + "'");
    if (slot->has_value()) Fail(context, "bad .npy header: duplicate key '" + key + "'");
    *slot = std::move(value);
  }
  NpyHeader header;
  header.dtype = ParseDTypeString(RequireValue<std::string>(descr, "descr", "a dtype string", context), context);
  if (RequireValue<bool>(fortran_order, "fortran_order", "True or False", context)) {
    Fail(context, "fortran_order=True arrays are not supported; save a C-ordered array (np.ascontiguousarray)");
  }
  header.shape = RequireValue<std::vector<int64_t>>(shape, "shape", "a tuple of integers", context);
  return header;
}

uint64_t ReadLittleEndian(std::span<const std::byte> bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes.size(); ++i)
    value |= static_cast<uint64_t>(std::to_integer<uint8_t>(bytes[i])) << (8 * i);
  return value;
}

// Number of data bytes of an array; an Error when it does not fit in 63 bits.
uint64_t DataSize(const Shape& shape, DType dtype, const std::string& context) {
  uint64_t elements = 1;
  bool empty = false;
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  for (int64_t dim : shape) {
    if (dim == 0) empty = true;
    const uint64_t factor = dim == 0 ? 1 : static_cast<uint64_t>(dim);
    if (elements > kLimit / factor / DTypeSize(dtype)) Fail(context, "shape " + ShapeToString(shape) + " is too large");
    elements *= factor;
  }
  return empty ? 0 : elements * DTypeSize(dtype);
}

}  // namespace

std::string NumpyDTypeString(DType dtype, const std::string& context) {
  for (const NumpyDType& type : kNumpyDTypes) {
    if (type.dtype == dtype) return DTypeString(type);
  }
  Fail(context, std::string(DTypeName(dtype)) + " has no numpy dtype (supported: f32, f16, i8, u8, i32, i64, bool)");
}

Tensor DecodeNpy(std::span<const std::byte> bytes, const std::string& context) {
  if (bytes.size() < kPreludeSizeVersion1 || std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
    Fail(context, "not a .npy file (bad magic)");
  }
  const int major = std::to_integer<int>(bytes[kMagic.size()]);
  const int minor = std::to_integer<int>(bytes[kMagic.size() + 1]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    Fail(context, ".npy version " + std::to_string(major) + "." + std::to_string(minor) +
                      " is not supported (expected 1.0, 2.0 or 3.0)");
  }
  const size_t prelude_size = major == 1 ? kPreludeSizeVersion1 : kPreludeSizeVersion2;
  if (bytes.size() < prelude_size) Fail(context, ".npy prelude is truncated");
  const uint64_t header_size = ReadLittleEndian(bytes.subspan(kMagic.size() + 2, prelude_size - kMagic.size() - 2));
  if (header_size > bytes.size() - prelude_size) {
    Fail(context, ".npy header says " + std::to_string(header_size) + " bytes but only " +
                      std::to_string(bytes.size() - prelude_size) + " remain");
  }
  const std::string_view header_text(reinterpret_cast<const char*>(bytes.data()) + prelude_size,
                                     static_cast<size_t>(header_size));
  const NpyHeader header = InterpretHeader(header_text, context);

  const std::span<const std::byte> data = bytes.subspan(prelude_size + static_cast<size_t>(header_size));
  const uint64_t expected_size = DataSize(header.shape, header.dtype, context);
  if (expected_size != data.size()) {
    Fail(context, "header says " + std::to_string(expected_size) + " bytes of data (" +
                      std::string(DTypeName(header.dtype)) + " " + ShapeToString(header.shape) + ") but " +
                      (data.size() < expected_size ? "only " : "") + std::to_string(data.size()) + " remain");
  }
  Tensor tensor = Tensor::Zeros(header.dtype, header.shape);
  if (!data.empty()) std::memcpy(tensor.raw_data(), data.data(), data.size());
  if (header.dtype == DType::kBool) {
    // numpy writes 0/1; any other byte would not be a valid C++ bool.
    auto* values = static_cast<uint8_t*>(tensor.raw_data());
    for (size_t i = 0; i < data.size(); ++i) values[i] = values[i] != 0 ? 1 : 0;
  }
  return tensor;
}

std::string EncodeNpyHeader(DType dtype, const Shape& shape, const std::string& context) {
  std::string shape_text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) shape_text += ", ";
    shape_text += std::to_string(shape[i]);
  }
  shape_text += shape.size() == 1 ? ",)" : ")";
  std::string dict =
      "{'descr': '" + NumpyDTypeString(dtype, context) + "', 'fortran_order': False, 'shape': " + shape_text + ", }";

  const bool version1 = kPreludeSizeVersion1 + dict.size() + 1 <= 0xffff;
  const size_t prelude_size = version1 ? kPreludeSizeVersion1 : kPreludeSizeVersion2;
  const size_t unpadded = prelude_size + dict.size() + 1;  // + '\n'
  const size_t padding = (kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment;
  const size_t header_size = dict.size() + padding + 1;

  std::string result(kMagic);
  result += static_cast<char>(version1 ? 1 : 2);
  result += '\0';
  for (size_t i = 0; i < prelude_size - kMagic.size() - 2; ++i) {
    result += static_cast<char>((header_size >> (8 * i)) & 0xff);
  }
  result += dict;
  result.append(padding, ' ');
  result += '\n';
  return result;
}

}  // namespace collage
