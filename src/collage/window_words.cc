#include "collage/window_words.h"

#include <algorithm>
#include <cstring>

namespace collage {

WindowWords::WindowWords(const std::vector<uint64_t>& words) : inline_{0, 0} { CopyFrom(words.data(), words.size()); }

WindowWords& WindowWords::operator=(const WindowWords& other) {
  if (this != &other) CopyFrom(other.data(), other.size_);
  return *this;
}

// Replaces the words with `count` words copied from `words` (zeros when null).
void WindowWords::CopyFrom(const uint64_t* words, size_t count) {
  if (count > capacity_) {
    Release();
    heap_ = new uint64_t[count];
    capacity_ = static_cast<uint32_t>(count);
  }
  uint64_t* target = data();
  if (words == nullptr) {
    std::fill(target, target + count, uint64_t{0});
  } else {
    std::memmove(target, words, count * sizeof(uint64_t));
  }
  size_ = static_cast<uint32_t>(count);
}

void WindowWords::Trim(size_t front, size_t back) {
  uint64_t* words = data();
  std::memmove(words, words + front, (back - front) * sizeof(uint64_t));
  size_ = static_cast<uint32_t>(back - front);
}

bool WindowWords::operator==(const WindowWords& other) const {
  if (size_ != other.size_) return false;
  // A loop rather than std::equal, which calls memcmp: windows are a word or two long.
  for (size_t i = 0; i < size_; ++i) {
    if (data()[i] != other.data()[i]) return false;
  }
  return true;
}

}  // namespace collage
