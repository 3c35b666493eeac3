#include "collage/cost.h"

#include <sstream>

namespace collage {
namespace {

// Known costs rank 0, Unknown 1, Invalid 2.
int Rank(const Cost& cost) { return cost.IsInvalid() ? 2 : cost.IsUnknown() ? 1 : 0; }

}  // namespace

Cost Cost::operator+(const Cost& other) const {
  if (IsInvalid() || other.IsInvalid()) return Invalid();
  if (IsUnknown() || other.IsUnknown()) return Unknown();
  return Cost(value_ + other.value_);
}

std::strong_ordering Cost::operator<=>(const Cost& other) const {
  const int rank = Rank(*this);
  const int other_rank = Rank(other);
  if (rank != other_rank || rank != 0) return rank <=> other_rank;
  if (value_ < other.value_) return std::strong_ordering::less;
  if (value_ > other.value_) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

std::string Cost::ToString() const {
  if (IsInvalid()) return "invalid";
  if (IsUnknown()) return "unknown";
  std::ostringstream text;
  text << value_ << "s";
  return text.str();
}

}  // namespace collage
