// The explicit words of an IndexSet's window: up to kInlineWords of them are stored in the
// object itself, more on the heap. Candidate sub-graphs span one or two words, so the
// partitioner's millions of sets (five per sub-graph) mostly allocate nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace collage {

class WindowWords {
 public:
  static constexpr size_t kInlineWords = 2;  // the move assignment copies exactly two

  WindowWords() = default;
  // `count` zero words.
  explicit WindowWords(size_t count) : inline_{0, 0} {
    if (count > kInlineWords) {
      CopyFrom(nullptr, count);
    } else {
      size_ = static_cast<uint32_t>(count);
    }
  }
  explicit WindowWords(const std::vector<uint64_t>& words);
  WindowWords(const WindowWords& other) : inline_{0, 0} {
    if (other.size_ > kInlineWords) {
      CopyFrom(other.data(), other.size_);
    } else {
      inline_[0] = other.data()[0];  // readable either way: the inline words, or a heap block of more
      inline_[1] = other.data()[1];  // than two
      size_ = other.size_;
    }
  }
  WindowWords(WindowWords&& other) noexcept : inline_{0, 0} { *this = std::move(other); }
  WindowWords& operator=(const WindowWords& other);
  WindowWords& operator=(WindowWords&& other) noexcept {
    if (this == &other) return *this;
    Release();
    if (other.OnHeap()) {
      heap_ = other.heap_;
      capacity_ = other.capacity_;
      other.capacity_ = kInlineWords;
    } else {
      inline_[0] = other.inline_[0];
      inline_[1] = other.inline_[1];
    }
    size_ = other.size_;
    other.size_ = 0;
    return *this;
  }
  ~WindowWords() { Release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const uint64_t* begin() const { return data(); }
  const uint64_t* end() const { return data() + size_; }
  uint64_t operator[](size_t i) const { return data()[i]; }
  uint64_t& operator[](size_t i) { return data()[i]; }
  // The heap words held (0 while inline).
  size_t capacity() const { return OnHeap() ? capacity_ : 0; }
  std::vector<uint64_t> ToVector() const { return std::vector<uint64_t>(begin(), end()); }

  // Keeps words [front, back) only.
  void Trim(size_t front, size_t back);

  bool operator==(const WindowWords& other) const;

 private:
  bool OnHeap() const { return capacity_ > kInlineWords; }
  const uint64_t* data() const { return OnHeap() ? heap_ : inline_; }
  uint64_t* data() { return OnHeap() ? heap_ : inline_; }
  void Release() {
    if (OnHeap()) delete[] heap_;
    capacity_ = kInlineWords;
    size_ = 0;
  }
  void CopyFrom(const uint64_t* words, size_t count);

  union {
    uint64_t inline_[kInlineWords];
    uint64_t* heap_;
  };
  uint32_t size_ = 0;
  uint32_t capacity_ = kInlineWords;
};

}  // namespace collage
