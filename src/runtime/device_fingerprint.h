// A short stable string identifying the CPU, part of every measured cost's key: the model
// name and the instruction-set extensions that kernels dispatch on, e.g.
// "AMD EPYC | sse4_2 avx avx2 fma avx512f avx512bw". The same machine always gives the same
// string; flags are listed in a fixed order, whatever order /proc/cpuinfo uses.
#pragma once

#include <string>
#include <string_view>

namespace collage {

// The fingerprint of this machine, read from /proc/cpuinfo once ("unknown CPU" when it cannot
// be read).
std::string DeviceFingerprint();
// The fingerprint described by the text of a /proc/cpuinfo file (x86 "model name"/"flags" or
// Arm "CPU implementer"/"CPU part"/"Features"; only the first processor's lines count).
std::string DeviceFingerprintFromCpuInfo(std::string_view cpuinfo);

}  // namespace collage
