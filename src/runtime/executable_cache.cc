#include "runtime/executable_cache.h"

#include <unordered_set>

#include "ir/structural_equal.h"
#include "ir/visitor.h"
#include "support/hash.h"

namespace collage {
namespace {

// `function` without its global symbol, sharing its parameters and body.
Function WithoutGlobalSymbol(const Function& function) {
  if (!function->attrs.Has(attr::kGlobalSymbol)) return function;
  Attrs attrs = function->attrs;
  attrs.Erase(attr::kGlobalSymbol);
  return MakeFunction(function->params, function->body, std::move(attrs));
}

size_t ConstantBytes(const Function& function) {
  size_t bytes = 0;
  std::unordered_set<const void*> counted;
  for (const Expr& node : PostOrder(function->body)) {
    const auto* constant = As<ConstantNode>(node);
    if (constant != nullptr && counted.insert(constant->data.raw_data()).second) bytes += constant->data.NumBytes();
  }
  return bytes;
}

size_t KeyHash(const std::string& backend, const Function& function, const CompileOptions& options) {
  size_t hash = HashCombine(HashValue(backend), StructuralHash(function));
  hash = HashCombine(hash, HashValue(options.threads));
  return HashCombine(hash, HashValue(options.cache_dir));
}

}  // namespace

ExecutableCache::EntryList::iterator ExecutableCache::Locate(const std::string& backend, const Function& key,
                                                             const CompileOptions& options, size_t hash) {
  const auto [begin, end] = by_hash_.equal_range(hash);
  for (auto found = begin; found != end; ++found) {
    const EntryList::iterator entry = found->second;
    if (entry->backend == backend && entry->options.threads == options.threads &&
        entry->options.cache_dir == options.cache_dir && StructuralEqual(entry->function, key)) {
      return entry;
    }
  }
  return entries_.end();
}

std::shared_ptr<Executable> ExecutableCache::Find(const std::string& backend, const Function& function,
                                                  const CompileOptions& options) {
  const Function key = WithoutGlobalSymbol(function);
  const EntryList::iterator entry = Locate(backend, key, options, KeyHash(backend, key, options));
  if (entry == entries_.end()) {
    ++misses_;
    return nullptr;
  }
  entries_.splice(entries_.begin(), entries_, entry);
  ++hits_;
  return entry->executable;
}

void ExecutableCache::Insert(const std::string& backend, const Function& function, const CompileOptions& options,
                             std::shared_ptr<Executable> executable) {
  Entry entry;
  entry.backend = backend;
  entry.options = options;
  entry.function = WithoutGlobalSymbol(function);
  entry.hash = KeyHash(backend, entry.function, options);
  const EntryList::iterator equal = Locate(backend, entry.function, options, entry.hash);
  if (equal != entries_.end()) {
    entries_.splice(entries_.begin(), entries_, equal);
    return;
  }
  entry.bytes = kEntryAllowanceBytes + ConstantBytes(entry.function);
  entry.executable = std::move(executable);
  held_bytes_ += entry.bytes;
  const size_t hash = entry.hash;
  entries_.push_front(std::move(entry));
  by_hash_.emplace(hash, entries_.begin());
  EvictToCapacity();
}

void ExecutableCache::EvictToCapacity() {
  while (held_bytes_ > capacity_bytes_ && entries_.size() > 1) {
    const EntryList::iterator oldest = std::prev(entries_.end());
    const auto [begin, end] = by_hash_.equal_range(oldest->hash);
    for (auto found = begin; found != end; ++found) {
      if (found->second == oldest) {
        by_hash_.erase(found);
        break;
      }
    }
    held_bytes_ -= oldest->bytes;
    entries_.erase(oldest);
  }
}

}  // namespace collage
