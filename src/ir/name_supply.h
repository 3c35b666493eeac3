// Fresh global symbols for outlined functions: "<prefix>_<n>" with one counter shared by every
// prefix, so the symbols handed out by one supply are unique across a module whatever their
// prefix. A value: copy it to name alternative outlinings from the same start, then continue
// past all of them with AdvancePast.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace collage {

class NameSupply {
 public:
  std::string Fresh(std::string_view prefix) { return std::string(prefix) + "_" + std::to_string(next_++); }
  // Continues after every name `other` has handed out.
  void AdvancePast(const NameSupply& other) { next_ = std::max(next_, other.next_); }
  size_t handed_out() const { return next_; }

 private:
  size_t next_ = 0;
};

}  // namespace collage
