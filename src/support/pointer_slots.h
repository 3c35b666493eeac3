// The key array of an open-addressing hash table of non-null pointers (linear probing), shared
// by PointerSet and PointerMap: a lookup costs a hash and a short probe in one flat array,
// without the node per element that std::unordered_set and std::unordered_map allocate.
//
// Invariant: the table is empty or its size is a power of two with at most half of it
// occupied, so every probe ends at the key or at an empty slot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collage {

class PointerSlots {
 public:
  static constexpr size_t kNotFound = SIZE_MAX;

  // The slot holding `key`, or kNotFound.
  size_t Find(const void* key) const {
    if (keys_.empty()) return kNotFound;
    const size_t slot = Probe(keys_, key);
    return keys_[slot] == key ? slot : kNotFound;
  }
  // Whether one more key keeps the invariant.
  bool HasRoomForOneMore() const { return 2 * (count_ + 1) <= keys_.size(); }
  // The slot of `key`, inserted when absent (`inserted` says which). Requires HasRoomForOneMore().
  size_t FindOrInsertWithRoom(const void* key, bool& inserted) {
    const size_t slot = Probe(keys_, key);
    inserted = keys_[slot] == nullptr;
    if (inserted) {
      keys_[slot] = key;
      ++count_;
    }
    return slot;
  }

  // The table size after the next growth, and the least table size holding `count` keys.
  size_t GrownTableSize() const { return keys_.empty() ? kSmallestTable : 2 * keys_.size(); }
  size_t TableSizeFor(size_t count) const {
    size_t table_size = keys_.empty() ? kSmallestTable : keys_.size();
    while (2 * count > table_size) table_size *= 2;
    return table_size;
  }
  // Rehashes into `table_size` slots (a power of two, enough for the keys), calling
  // moved(old_slot, new_slot) for each key.
  template <typename OnMove>
  void Resize(size_t table_size, OnMove moved) {
    std::vector<const void*> resized(table_size, nullptr);
    for (size_t slot = 0; slot < keys_.size(); ++slot) {
      if (keys_[slot] == nullptr) continue;
      const size_t new_slot = Probe(resized, keys_[slot]);
      resized[new_slot] = keys_[slot];
      moved(slot, new_slot);
    }
    keys_ = std::move(resized);
  }

  size_t size() const { return count_; }
  size_t table_size() const { return keys_.size(); }

 private:
  static constexpr size_t kSmallestTable = 64;

  static size_t Probe(const std::vector<const void*>& table, const void* key) {
    const uint64_t bits = reinterpret_cast<uintptr_t>(key);
    const size_t mask = table.size() - 1;
    for (size_t slot = static_cast<size_t>((bits * 0x9e3779b97f4a7c15ULL) >> 32) & mask;;
         slot = (slot + 1) & mask) {
      if (table[slot] == key || table[slot] == nullptr) return slot;
    }
  }

  std::vector<const void*> keys_;
  size_t count_ = 0;
};

}  // namespace collage
