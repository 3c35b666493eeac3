// A set of post-DFS indices of a dataflow graph, as a fixed-size bit vector.
//
// Every set used with one graph has the graph's node count as its size; binary operations
// require equal sizes. The hot operations (union, intersection, disjointness, first index
// inside/outside) work a 64-bit word at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace collage {

class IndexSet {
 public:
  IndexSet() = default;
  explicit IndexSet(size_t size) : size_(size), words_((size + 63) / 64, 0) {}
  IndexSet(size_t size, const std::vector<size_t>& indices);

  size_t size() const { return size_; }
  bool Contains(size_t index) const { return (words_[index / 64] >> (index % 64)) & 1; }
  bool operator[](size_t index) const { return Contains(index); }
  void Add(size_t index) { words_[index / 64] |= uint64_t{1} << (index % 64); }
  void Remove(size_t index) { words_[index / 64] &= ~(uint64_t{1} << (index % 64)); }

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
  std::vector<size_t> ToVector() const;

  bool operator==(const IndexSet& other) const { return size_ == other.size_ && words_ == other.words_; }
  size_t Hash() const;
  // "{1, 4, 5}".
  std::string ToString() const;

 private:
  void CheckSameSize(const IndexSet& other) const;

  size_t size_ = 0;
  std::vector<uint64_t> words_;
};

struct IndexSetHash {
  size_t operator()(const IndexSet& set) const { return set.Hash(); }
};

}  // namespace collage
