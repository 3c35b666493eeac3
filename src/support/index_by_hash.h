// From a 64-bit hash to an index, by open addressing in one flat table: for indexing millions
// of items by hash without an allocation per item (a node-based map allocates one per entry).
// Hashes are not compared with keys: equal hashes share one entry, and a caller with colliding
// keys chains them itself. The table is a power of two in size and at most half full.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <vector>

namespace collage {

class IndexByHash {
 public:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  // The index stored for `hash`, or kNone.
  size_t Find(size_t hash) const {
    if (slots_.empty()) return kNone;
    for (size_t slot = Home(hash);; slot = (slot + 1) & (slots_.size() - 1)) {
      if (slots_[slot].index == kNone) return kNone;
      if (slots_[slot].hash == hash) return slots_[slot].index;
    }
  }
  // Stores `index` (not kNone) for `hash`, replacing any index stored for it.
  void Set(size_t hash, size_t index) {
    if (2 * (count_ + 1) > slots_.size()) Grow();
    for (size_t slot = Home(hash);; slot = (slot + 1) & (slots_.size() - 1)) {
      if (slots_[slot].index == kNone) {
        slots_[slot] = {hash, index};
        ++count_;
        return;
      }
      if (slots_[slot].hash == hash) {
        slots_[slot].index = index;
        return;
      }
    }
  }
  void Clear() {
    slots_.clear();
    shift_ = 64;
    count_ = 0;
  }

 private:
  struct Slot {
    size_t hash = 0;
    size_t index = kNone;
  };
  // The first slot to probe: the top bits of the hash times 2^64 / golden ratio, as the sets'
  // hashes differ mostly in their low bits.
  size_t Home(size_t hash) const { return (hash * 0x9E3779B97F4A7C15ull) >> shift_; }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(16, 2 * old.size()), Slot{});
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(slots_.size()));
    count_ = 0;
    for (const Slot& slot : old) {
      if (slot.index != kNone) Set(slot.hash, slot.index);
    }
  }
  std::vector<Slot> slots_;  // a power of two in size, at most half full
  unsigned shift_ = 64;      // 64 - log2(slots_.size())
  size_t count_ = 0;
};

}  // namespace collage
