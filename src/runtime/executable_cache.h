// Compiled partitions kept for reuse by later executors of the same model's placements. The
// graph-level search measures many placements that share most of their partitions; with a
// cache, each executor compiles only the partitions no earlier one had.
//
// An entry is keyed by the backend, the compile options and the function's structure with
// constants compared by value (ir/structural_equal.h); the function's global symbol is not
// part of the key, since outlining numbers partitions by position. The cache keeps at most
// `capacity_bytes` of the cached functions' constants (a stand-in for what their executables
// hold: packed weights) plus kEntryAllowanceBytes per entry (code, primitives, scratch),
// evicting the least recently used entries; the entry just inserted is always kept.
//
// Not thread-safe. An Executable is run by one caller at a time, so the executors sharing a
// cache must run one after another, never at the same time.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>

#include "backend/backend.h"
#include "ir/expr.h"

namespace collage {

class ExecutableCache {
 public:
  static constexpr size_t kEntryAllowanceBytes = 64 * 1024;

  explicit ExecutableCache(size_t capacity_bytes) : capacity_bytes_(capacity_bytes) {}
  ExecutableCache(const ExecutableCache&) = delete;
  ExecutableCache& operator=(const ExecutableCache&) = delete;

  // The executable compiled for an equal function, or null (counted as a hit or a miss).
  std::shared_ptr<Executable> Find(const std::string& backend, const Function& function,
                                   const CompileOptions& options);
  // Keeps `executable`, compiled for `function` by `backend`, then evicts down to the capacity;
  // when an equal function is cached already, keeps that one instead.
  void Insert(const std::string& backend, const Function& function, const CompileOptions& options,
              std::shared_ptr<Executable> executable);

  size_t size() const { return entries_.size(); }
  size_t held_bytes() const { return held_bytes_; }
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }

 private:
  struct Entry {
    std::string backend;
    CompileOptions options;
    Function function;  // without its global symbol; keeps the constants alive
    size_t hash = 0;
    size_t bytes = 0;
    std::shared_ptr<Executable> executable;
  };
  using EntryList = std::list<Entry>;  // most recently used first

  // The entry of a function equal to `key` (a function without global symbol) whose KeyHash is
  // `hash`, or entries_.end().
  EntryList::iterator Locate(const std::string& backend, const Function& key, const CompileOptions& options,
                             size_t hash);
  void EvictToCapacity();

  size_t capacity_bytes_;
  size_t held_bytes_ = 0;
  size_t hits_ = 0;
  size_t misses_ = 0;
  EntryList entries_;
  std::unordered_multimap<size_t, EntryList::iterator> by_hash_;
};

}  // namespace collage
