#include "collage/index_set.h"

#include <bit>

#include "support/error.h"
#include "support/hash.h"

namespace collage {

IndexSet::IndexSet(size_t size, const std::vector<size_t>& indices) : IndexSet(size) {
  for (size_t index : indices) {
    Check(index < size, "IndexSet: index " + std::to_string(index) + " is out of range for size " + std::to_string(size));
    Add(index);
  }
}

void IndexSet::CheckSameSize(const IndexSet& other) const {
  Check(size_ == other.size_, "IndexSet: sets of sizes " + std::to_string(size_) + " and " +
                                  std::to_string(other.size_) + " belong to different graphs");
}

IndexSet IndexSet::operator|(const IndexSet& other) const {
  IndexSet result = *this;
  result |= other;
  return result;
}

IndexSet& IndexSet::operator|=(const IndexSet& other) {
  CheckSameSize(other);
  for (size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  return *this;
}

IndexSet IndexSet::operator&(const IndexSet& other) const {
  CheckSameSize(other);
  IndexSet result = *this;
  for (size_t w = 0; w < words_.size(); ++w) result.words_[w] &= other.words_[w];
  return result;
}

IndexSet IndexSet::operator-(const IndexSet& other) const {
  CheckSameSize(other);
  IndexSet result = *this;
  for (size_t w = 0; w < words_.size(); ++w) result.words_[w] &= ~other.words_[w];
  return result;
}

bool IndexSet::AreDisjoint(const IndexSet& other) const {
  CheckSameSize(other);
  for (size_t w = 0; w < words_.size(); ++w) {
    if (words_[w] & other.words_[w]) return false;
  }
  return true;
}

bool IndexSet::IsSubsetOf(const IndexSet& other) const {
  CheckSameSize(other);
  for (size_t w = 0; w < words_.size(); ++w) {
    if (words_[w] & ~other.words_[w]) return false;
  }
  return true;
}

bool IndexSet::IsEmpty() const {
  for (uint64_t word : words_) {
    if (word) return false;
  }
  return true;
}

size_t IndexSet::Count() const {
  size_t count = 0;
  for (uint64_t word : words_) count += std::popcount(word);
  return count;
}

std::optional<size_t> IndexSet::FirstInside(size_t from) const {
  if (from >= size_) return std::nullopt;
  size_t w = from / 64;
  uint64_t word = words_[w] & (~uint64_t{0} << (from % 64));
  while (true) {
    if (word) return w * 64 + std::countr_zero(word);
    if (++w == words_.size()) return std::nullopt;
    word = words_[w];
  }
}

std::optional<size_t> IndexSet::FirstOutside(size_t from) const {
  if (from >= size_) return std::nullopt;
  size_t w = from / 64;
  uint64_t word = ~words_[w] & (~uint64_t{0} << (from % 64));
  while (true) {
    if (word) {
      const size_t index = w * 64 + std::countr_zero(word);
      return index < size_ ? std::optional<size_t>(index) : std::nullopt;
    }
    if (++w == words_.size()) return std::nullopt;
    word = ~words_[w];
  }
}

std::vector<size_t> IndexSet::ToVector() const {
  std::vector<size_t> indices;
  for (std::optional<size_t> index = FirstInside(); index; index = FirstInside(*index + 1)) indices.push_back(*index);
  return indices;
}

size_t IndexSet::Hash() const {
  size_t hash = HashValue(size_);
  for (uint64_t word : words_) hash = HashCombine(hash, word);
  return hash;
}

std::string IndexSet::ToString() const {
  std::string text = "{";
  for (size_t index : ToVector()) text += (text.size() > 1 ? ", " : "") + std::to_string(index);
  return text + "}";
}

}  // namespace collage
