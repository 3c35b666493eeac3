// A set of post-DFS indices of a dataflow graph, as a bit vector that stores only where it
// varies.
//
// Every set used with one graph has the graph's node count as its size; binary operations
// require equal sizes. The sets the partitioner makes are local (a candidate's nodes lie close
// together in post-DFS order) or a long covered prefix plus a few nodes beyond it, so a set
// keeps a count of leading words whose bits are all set, then a window of explicit 64-bit words;
// every word past the window is zero. Operations cost the words of the windows involved, not
// the graph's size, which keeps the partitioner near-linear on graphs of 100,000 nodes.
//
// Invariant (so that equal sets have equal representations): the window neither starts nor
// ends with a zero word, and does not start with an all-set word right after the full prefix;
// an empty window starts where the full prefix ends.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collage/window_words.h"

namespace collage {

class IndexSet {
 public:
  IndexSet() = default;
  explicit IndexSet(size_t size) : size_(size) {}
  IndexSet(size_t size, const std::vector<size_t>& indices);
  // Every index below `size`.
  static IndexSet Full(size_t size);
  // Every index below `count` (at most `size`).
  static IndexSet Prefix(size_t size, size_t count);

  size_t size() const { return size_; }
  bool Contains(size_t index) const { return (Word(index / 64) >> (index % 64)) & 1; }
  bool operator[](size_t index) const { return Contains(index); }
  void Add(size_t index);
  void Remove(size_t index);

  IndexSet operator|(const IndexSet& other) const;
  IndexSet operator&(const IndexSet& other) const;
  IndexSet operator-(const IndexSet& other) const;
  IndexSet& operator|=(const IndexSet& other);

  bool AreDisjoint(const IndexSet& other) const;
  bool Intersects(const IndexSet& other) const { return !AreDisjoint(other); }
  bool IsSubsetOf(const IndexSet& other) const;
  bool IsEmpty() const;
  bool IsFull() const { return !FirstOutside().has_value(); }
  size_t Count() const;

  // The smallest index >= `from` inside (outside) the set, if any.
  std::optional<size_t> FirstInside(size_t from = 0) const;
  std::optional<size_t> FirstOutside(size_t from = 0) const;
  // The largest index inside, if any.
  std::optional<size_t> LastInside() const;
  std::vector<size_t> ToVector() const;
  // Calls visit(index) for each index in the set, in increasing order, without allocating.
  template <typename Visit>
  void ForEach(Visit visit) const {
    for (size_t index = 0; index < full_words_ * 64; ++index) visit(index);
    for (size_t i = 0; i < words_.size(); ++i) {
      for (uint64_t word = words_[i]; word != 0; word &= word - 1) {
        visit((first_word_ + i) * 64 + static_cast<size_t>(std::countr_zero(word)));
      }
    }
  }

  bool operator==(const IndexSet& other) const {
    return size_ == other.size_ && full_words_ == other.full_words_ && first_word_ == other.first_word_ &&
           words_ == other.words_;
  }
  size_t Hash() const;
  // The heap memory the set holds.
  size_t HeapBytes() const { return words_.capacity() * sizeof(uint64_t); }
  // "{1, 4, 5}".
  std::string ToString() const;

 private:
  void CheckSameSize(const IndexSet& other) const {
    if (size_ != other.size_) ThrowSizeMismatch(other);
  }
  [[noreturn]] void ThrowSizeMismatch(const IndexSet& other) const;
  // The word at position `w` (bits 64w .. 64w + 63).
  uint64_t Word(size_t w) const {
    if (w < full_words_) return ~uint64_t{0};
    return w >= first_word_ && w - first_word_ < words_.size() ? words_[w - first_word_] : 0;
  }
  // The first word that may be non-zero, and one past the last that may be.
  size_t BeginWord() const { return full_words_ > 0 ? 0 : first_word_; }
  size_t EndWord() const { return words_.empty() ? full_words_ : first_word_ + words_.size(); }
  // Where the explicit words start; past every word when there are none.
  size_t WindowBegin() const { return words_.empty() ? static_cast<size_t>(-1) : first_word_; }
  // A set with `full_words` full words and `count` zero words from `begin` on, for the caller to
  // fill and then normalize.
  static IndexSet WithZeroWindow(size_t size, size_t full_words, size_t begin, size_t count);
  // Restores the invariant.
  void Normalize();

  size_t size_ = 0;
  size_t full_words_ = 0;  // words [0, full_words_) have every bit set
  size_t first_word_ = 0;  // the position of words_[0]; >= full_words_
  WindowWords words_;
};

struct IndexSetHash {
  size_t operator()(const IndexSet& set) const { return set.Hash(); }
};

}  // namespace collage
