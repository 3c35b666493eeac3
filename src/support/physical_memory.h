// The machine's physical memory, as the operating system reports it.
#pragma once

#include <cstddef>
#include <optional>

namespace collage {

// Bytes of physical memory; nullopt when the system does not say.
std::optional<size_t> PhysicalMemoryBytes();

}  // namespace collage
