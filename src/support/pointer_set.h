// A set of non-null pointers in one flat array: for visited sets of graph walks over hundreds
// of thousands of nodes.
#pragma once

#include <cstddef>

#include "support/pointer_slots.h"

namespace collage {

class PointerSet {
 public:
  // True when `pointer` (not null) was not in the set and is now.
  bool Insert(const void* pointer) {
    if (!slots_.HasRoomForOneMore()) slots_.Resize(slots_.GrownTableSize(), [](size_t, size_t) {});
    bool inserted = false;
    slots_.FindOrInsertWithRoom(pointer, inserted);
    return inserted;
  }
  bool Contains(const void* pointer) const { return slots_.Find(pointer) != PointerSlots::kNotFound; }
  // Makes room for `count` pointers without growing again.
  void Reserve(size_t count) {
    const size_t table_size = slots_.TableSizeFor(count);
    if (table_size != slots_.table_size()) slots_.Resize(table_size, [](size_t, size_t) {});
  }
  size_t size() const { return slots_.size(); }

 private:
  PointerSlots slots_;
};

}  // namespace collage
