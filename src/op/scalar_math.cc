#include "op/scalar_math.h"

#include "support/error.h"

namespace collage::scalar {

int64_t Divide(int64_t a, int64_t b) {
  if (b == 0) throw Error("integer division by zero");
  if (b == -1) return Negate(a);  // INT64_MIN / -1 overflows
  return a / b;
}

int64_t Power(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 0) throw Error("integer zero raised to the negative power " + std::to_string(exponent));
    if (base == 1) return 1;
    if (base == -1) return exponent % 2 == 0 ? 1 : -1;
    return 0;
  }
  int64_t result = 1;
  int64_t square = base;
  for (; exponent > 0; exponent /= 2) {
    if (exponent % 2 == 1) result = Multiply(result, square);
    square = Multiply(square, square);
  }
  return result;
}

int64_t TruncatedRemainder(int64_t a, int64_t b) {
  if (b == 0) throw Error("integer remainder of a division by zero");
  if (b == -1) return 0;  // INT64_MIN % -1 overflows
  return a % b;
}

int64_t FlooredRemainder(int64_t a, int64_t b) {
  const int64_t remainder = TruncatedRemainder(a, b);
  return remainder != 0 && ((remainder < 0) != (b < 0)) ? remainder + b : remainder;
}

}  // namespace collage::scalar
