// The cost of running a candidate partition: mean latency in seconds. Costs add up along
// a placement and are totally ordered: known costs by value, then Unknown (NaN: no
// estimate, another heuristic must decide), then Invalid (+inf: the backend cannot compile
// or run the candidate).
#pragma once

#include <compare>
#include <limits>
#include <string>

namespace collage {

class Cost {
 public:
  static Cost Zero() { return Cost(0.0); }
  static Cost Seconds(double seconds) { return Cost(seconds); }
  static Cost Unknown() { return Cost(std::numeric_limits<double>::quiet_NaN()); }
  static Cost Invalid() { return Cost(std::numeric_limits<double>::infinity()); }

  bool IsUnknown() const { return value_ != value_; }
  bool IsInvalid() const { return value_ == std::numeric_limits<double>::infinity(); }
  bool IsKnown() const { return !IsUnknown() && !IsInvalid(); }
  double seconds() const { return value_; }

  // Invalid absorbs everything; otherwise Unknown absorbs known costs.
  Cost operator+(const Cost& other) const;
  Cost& operator+=(const Cost& other) { return *this = *this + other; }
  std::strong_ordering operator<=>(const Cost& other) const;
  bool operator==(const Cost& other) const { return (*this <=> other) == std::strong_ordering::equal; }

  // "1.25e-05s", "unknown" or "invalid".
  std::string ToString() const;

 private:
  explicit Cost(double value) : value_(value) {}
  double value_;
};

}  // namespace collage
