// A set of non-null pointers in one flat array (open addressing, linear probing): an insert
// costs a hash and a probe, without allocating a node per element as std::unordered_set does.
// For visited sets of graph walks over hundreds of thousands of nodes.
//
// Invariant: the table's size is a power of two and at most half of it is occupied, so every
// probe ends at an empty slot.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace collage {

class PointerSet {
 public:
  // True when `pointer` (not null) was not in the set and is now.
  bool Insert(const void* pointer) {
    if (2 * (count_ + 1) > slots_.size()) Grow();
    return Place(slots_, pointer);
  }
  bool Contains(const void* pointer) const {
    if (slots_.empty()) return false;
    for (size_t slot = SlotOf(pointer, slots_.size());; slot = (slot + 1) & (slots_.size() - 1)) {
      if (slots_[slot] == pointer) return true;
      if (slots_[slot] == nullptr) return false;
    }
  }
  size_t size() const { return count_; }

 private:
  static size_t SlotOf(const void* pointer, size_t table_size) {
    const uint64_t bits = reinterpret_cast<uintptr_t>(pointer);
    return static_cast<size_t>((bits * 0x9e3779b97f4a7c15ULL) >> 32) & (table_size - 1);
  }
  bool Place(std::vector<const void*>& table, const void* pointer) {
    for (size_t slot = SlotOf(pointer, table.size());; slot = (slot + 1) & (table.size() - 1)) {
      if (table[slot] == pointer) return false;
      if (table[slot] == nullptr) {
        table[slot] = pointer;
        ++count_;
        return true;
      }
    }
  }
  void Grow() {
    std::vector<const void*> larger(slots_.empty() ? 64 : 2 * slots_.size(), nullptr);
    count_ = 0;
    for (const void* pointer : slots_) {
      if (pointer != nullptr) Place(larger, pointer);
    }
    slots_ = std::move(larger);
  }

  std::vector<const void*> slots_;
  size_t count_ = 0;
};

}  // namespace collage
