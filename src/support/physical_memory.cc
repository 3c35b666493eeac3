#include "support/physical_memory.h"

#include <unistd.h>

namespace collage {

std::optional<size_t> PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return std::nullopt;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_bytes);
}

}  // namespace collage
