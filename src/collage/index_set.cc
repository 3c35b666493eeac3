#include "collage/index_set.h"

#include <algorithm>
#include <bit>

#include "support/error.h"
#include "support/hash.h"

namespace collage {
namespace {

constexpr uint64_t kAllSet = ~uint64_t{0};

}  // namespace

IndexSet::IndexSet(size_t size, const std::vector<size_t>& indices) : IndexSet(size) {
  if (indices.empty()) return;
  const auto [lowest, highest] = std::minmax_element(indices.begin(), indices.end());
  if (*highest >= size) {
    throw Error("IndexSet: index " + std::to_string(*highest) + " is out of range for size " + std::to_string(size));
  }
  first_word_ = *lowest / 64;
  words_ = WindowWords(*highest / 64 + 1 - first_word_);
  for (size_t index : indices) words_[index / 64 - first_word_] |= uint64_t{1} << (index % 64);
  Normalize();
}

IndexSet IndexSet::Full(size_t size) { return Prefix(size, size); }

IndexSet IndexSet::Prefix(size_t size, size_t count) {
  Check(count <= size, "IndexSet: a prefix longer than the set's size");
  IndexSet set = WithZeroWindow(size, count / 64, count / 64, count % 64 != 0 ? 1 : 0);
  if (count % 64 != 0) set.words_[0] = (uint64_t{1} << (count % 64)) - 1;
  set.Normalize();
  return set;
}

IndexSet IndexSet::WithZeroWindow(size_t size, size_t full_words, size_t begin, size_t count) {
  IndexSet set(size);
  set.full_words_ = full_words;
  set.first_word_ = begin;
  set.words_ = WindowWords(count);
  return set;
}

void IndexSet::Normalize() {
  size_t front = 0;
  while (front < words_.size() && first_word_ + front == full_words_ && words_[front] == kAllSet) {
    ++full_words_;
    ++front;
  }
  while (front < words_.size() && words_[front] == 0) ++front;
  size_t back = words_.size();
  while (back > front && words_[back - 1] == 0) --back;
  if (front > 0 || back < words_.size()) {
    words_.Trim(front, back);
    first_word_ += front;
  }
  if (words_.empty()) first_word_ = full_words_;
}

void IndexSet::Add(size_t index) {
  if (Contains(index)) return;
  const size_t w = index / 64;
  const uint64_t bit = uint64_t{1} << (index % 64);
  if (words_.empty() || (w >= first_word_ && w < first_word_ + words_.size())) {
    if (words_.empty()) {
      words_ = WindowWords(1);
      first_word_ = w;
    }
    words_[w - first_word_] |= bit;
    Normalize();
    return;
  }
  std::vector<uint64_t> words = words_.ToVector();
  if (words.empty()) {
    first_word_ = w;
  } else if (w < first_word_) {
    words.insert(words.begin(), first_word_ - w, 0);
    first_word_ = w;
  } else if (w >= first_word_ + words.size()) {
    words.resize(w - first_word_ + 1, 0);
  }
  if (words.empty()) words.push_back(0);
  words[w - first_word_] |= uint64_t{1} << (index % 64);
  words_ = WindowWords(words);
  Normalize();
}

void IndexSet::Remove(size_t index) {
  if (!Contains(index)) return;
  const size_t w = index / 64;
  std::vector<uint64_t> words = words_.ToVector();
  if (w < full_words_) {
    // Make the words from w on explicit: [w, full) all set, [full, first) zero.
    std::vector<uint64_t> prefix(first_word_ - w, 0);
    std::fill(prefix.begin(), prefix.begin() + static_cast<std::ptrdiff_t>(full_words_ - w), kAllSet);
    words.insert(words.begin(), prefix.begin(), prefix.end());
    full_words_ = w;
    first_word_ = w;
  }
  words[w - first_word_] &= ~(uint64_t{1} << (index % 64));
  words_ = WindowWords(words);
  Normalize();
}

void IndexSet::ThrowSizeMismatch(const IndexSet& other) const {
  throw Error("IndexSet: sets of sizes " + std::to_string(size_) + " and " + std::to_string(other.size_) +
              " belong to different graphs");
}

IndexSet IndexSet::operator|(const IndexSet& other) const {
  CheckSameSize(other);
  const size_t full = std::max(full_words_, other.full_words_);
  const size_t begin = std::max(full, std::min(WindowBegin(), other.WindowBegin()));
  const size_t end = std::max(EndWord(), other.EndWord());
  IndexSet set = WithZeroWindow(size_, full, end > begin ? begin : full, end > begin ? end - begin : 0);
  for (size_t w = begin; w < end; ++w) set.words_[w - begin] = Word(w) | other.Word(w);
  set.Normalize();
  return set;
}

IndexSet& IndexSet::operator|=(const IndexSet& other) { return *this = *this | other; }

IndexSet IndexSet::operator&(const IndexSet& other) const {
  CheckSameSize(other);
  const size_t full = std::min(full_words_, other.full_words_);
  const size_t begin = std::max({full, BeginWord(), other.BeginWord()});
  const size_t end = std::min(EndWord(), other.EndWord());
  IndexSet set = WithZeroWindow(size_, full, end > begin ? begin : full, end > begin ? end - begin : 0);
  for (size_t w = begin; w < end; ++w) set.words_[w - begin] = Word(w) & other.Word(w);
  set.Normalize();
  return set;
}

IndexSet IndexSet::operator-(const IndexSet& other) const {
  CheckSameSize(other);
  // The result is full where this set is full and the other has nothing yet.
  const size_t full = other.IsEmpty() ? full_words_ : std::min(full_words_, other.BeginWord());
  const size_t begin = std::max(full, BeginWord());
  const size_t end = EndWord();
  IndexSet set = WithZeroWindow(size_, full, end > begin ? begin : full, end > begin ? end - begin : 0);
  for (size_t w = begin; w < end; ++w) set.words_[w - begin] = Word(w) & ~other.Word(w);
  set.Normalize();
  return set;
}

bool IndexSet::AreDisjoint(const IndexSet& other) const {
  CheckSameSize(other);
  const size_t begin = std::max(BeginWord(), other.BeginWord());
  const size_t end = std::min(EndWord(), other.EndWord());
  for (size_t w = begin; w < end; ++w) {
    if (Word(w) & other.Word(w)) return false;
  }
  return true;
}

bool IndexSet::IsSubsetOf(const IndexSet& other) const {
  CheckSameSize(other);
  const size_t begin = full_words_ > 0 ? std::min(full_words_, other.full_words_) : first_word_;
  for (size_t w = begin; w < EndWord(); ++w) {
    if (Word(w) & ~other.Word(w)) return false;
  }
  return true;
}

bool IndexSet::IsEmpty() const { return full_words_ == 0 && words_.empty(); }

size_t IndexSet::Count() const {
  size_t count = full_words_ * 64;
  for (uint64_t word : words_) count += std::popcount(word);
  return count;
}

std::optional<size_t> IndexSet::FirstInside(size_t from) const {
  if (from >= size_) return std::nullopt;
  size_t w = from / 64;
  if (w < full_words_) return from;
  uint64_t mask = ~uint64_t{0} << (from % 64);
  if (w < first_word_) {
    w = first_word_;
    mask = kAllSet;
  }
  for (; w < EndWord(); ++w, mask = kAllSet) {
    if (const uint64_t word = Word(w) & mask) return w * 64 + std::countr_zero(word);
  }
  return std::nullopt;
}

std::optional<size_t> IndexSet::FirstOutside(size_t from) const {
  if (from >= size_) return std::nullopt;
  size_t w = from / 64;
  uint64_t mask = ~uint64_t{0} << (from % 64);
  if (w < full_words_) {
    w = full_words_;
    mask = kAllSet;
  }
  for (; w < EndWord(); ++w, mask = kAllSet) {
    if (const uint64_t word = ~Word(w) & mask) {
      const size_t index = w * 64 + std::countr_zero(word);
      return index < size_ ? std::optional<size_t>(index) : std::nullopt;
    }
  }
  const size_t index = std::max(from, w * 64);
  return index < size_ ? std::optional<size_t>(index) : std::nullopt;
}

std::optional<size_t> IndexSet::LastInside() const {
  if (!words_.empty()) {
    const uint64_t last = words_[words_.size() - 1];
    return (first_word_ + words_.size() - 1) * 64 + 63 - static_cast<size_t>(std::countl_zero(last));
  }
  if (full_words_ > 0) return full_words_ * 64 - 1;
  return std::nullopt;
}

std::vector<size_t> IndexSet::ToVector() const {
  std::vector<size_t> indices;
  indices.reserve(Count());
  ForEach([&](size_t index) { indices.push_back(index); });
  return indices;
}

size_t IndexSet::Hash() const {
  size_t hash = HashCombine(HashCombine(HashValue(size_), full_words_), first_word_);
  for (uint64_t word : words_) hash = HashCombine(hash, word);
  return hash;
}

std::string IndexSet::ToString() const {
  std::string text = "{";
  for (size_t index : ToVector()) text += (text.size() > 1 ? ", " : "") + std::to_string(index);
  return text + "}";
}

}  // namespace collage
