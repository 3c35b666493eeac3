// A map from non-null pointers to values, in two flat arrays (keys and values, slot by slot):
// for node-indexed tables of graph walks and rewrites over hundreds of thousands of nodes,
// where std::unordered_map allocates a node per entry and chases it on every lookup.
//
// Pointers and references to values stay valid until the next insertion or Reserve.
// Value must be default-constructible and movable; a slot without a key holds Value().
#pragma once

#include <cassert>
#include <cstddef>
#include <utility>
#include <vector>

#include "support/pointer_slots.h"

namespace collage {

template <typename Value>
class PointerMap {
 public:
  // The value of `key` (not null), or null when absent.
  const Value* Find(const void* key) const {
    const size_t slot = slots_.Find(key);
    return slot == PointerSlots::kNotFound ? nullptr : &values_[slot];
  }
  Value* Find(const void* key) {
    const size_t slot = slots_.Find(key);
    return slot == PointerSlots::kNotFound ? nullptr : &values_[slot];
  }
  bool Contains(const void* key) const { return slots_.Find(key) != PointerSlots::kNotFound; }
  // The value of a key known to be present.
  const Value& At(const void* key) const {
    const Value* value = Find(key);
    assert(value != nullptr && "PointerMap::At of an absent key");
    return *value;
  }

  // The value of `key`, value-initialized when the key was absent.
  Value& operator[](const void* key) {
    bool inserted = false;
    return values_[FindOrInsert(key, inserted)];
  }
  // Inserts `value` under `key` unless the key is present; true when inserted.
  bool Insert(const void* key, Value value) {
    bool inserted = false;
    const size_t slot = FindOrInsert(key, inserted);
    if (inserted) values_[slot] = std::move(value);
    return inserted;
  }
  // Makes room for `count` keys without growing again.
  void Reserve(size_t count) {
    const size_t table_size = slots_.TableSizeFor(count);
    if (table_size != slots_.table_size()) Resize(table_size);
  }
  size_t size() const { return slots_.size(); }

 private:
  size_t FindOrInsert(const void* key, bool& inserted) {
    if (!slots_.HasRoomForOneMore()) {
      if (const size_t slot = slots_.Find(key); slot != PointerSlots::kNotFound) {
        inserted = false;
        return slot;
      }
      Resize(slots_.GrownTableSize());
    }
    return slots_.FindOrInsertWithRoom(key, inserted);
  }
  void Resize(size_t table_size) {
    std::vector<Value> resized(table_size);
    slots_.Resize(table_size, [&](size_t old_slot, size_t new_slot) { resized[new_slot] = std::move(values_[old_slot]); });
    values_ = std::move(resized);
  }

  PointerSlots slots_;
  std::vector<Value> values_;  // values_[slot] belongs to the key in that slot
};

}  // namespace collage
