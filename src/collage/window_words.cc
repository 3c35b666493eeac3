#include "collage/window_words.h"

#include <algorithm>
#include <cstring>

namespace collage {

WindowWords::WindowWords(size_t count) : inline_{0, 0} { CopyFrom(nullptr, count); }

WindowWords::WindowWords(const std::vector<uint64_t>& words) : inline_{0, 0} { CopyFrom(words.data(), words.size()); }

WindowWords::WindowWords(const WindowWords& other) : inline_{0, 0} { CopyFrom(other.data(), other.size_); }

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
  return size_ == other.size_ && std::equal(begin(), end(), other.begin());
}

}  // namespace collage
