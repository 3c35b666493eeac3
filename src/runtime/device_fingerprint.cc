#include "runtime/device_fingerprint.h"

#include <array>
#include <set>

#include "support/cpu_features.h"

namespace collage {
namespace {

// The extensions kernels choose code paths by, in the order the fingerprint lists them.
constexpr std::array<std::string_view, 25> kKernelFlags = {
    "sse4_2",   "avx",      "avx2",        "fma",         "f16c",        "avx_vnni", "avx512f",  "avx512dq", "avx512cd",
    "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8", "asimd",
    "asimddp",  "asimdhp",  "i8mm",        "bf16",        "sve",         "sve2",     "sme",
};

std::string ModelName(std::string_view cpuinfo) {
  if (std::string name = CpuInfoValue(cpuinfo, "model name"); !name.empty()) return name;
  const std::string implementer = CpuInfoValue(cpuinfo, "CPU implementer");
  const std::string part = CpuInfoValue(cpuinfo, "CPU part");
  if (!implementer.empty() || !part.empty()) return "Arm implementer " + implementer + " part " + part;
  return "unknown CPU";
}

std::string KernelFlags(std::string_view cpuinfo) {
  const std::set<std::string> present = CpuFlags(cpuinfo);
  std::string flags;
  for (std::string_view flag : kKernelFlags) {
    if (present.count(std::string(flag)) > 0) flags += (flags.empty() ? "" : " ") + std::string(flag);
  }
  return flags;
}

}  // namespace

std::string DeviceFingerprintFromCpuInfo(std::string_view cpuinfo) {
  const std::string flags = KernelFlags(cpuinfo);
  return ModelName(cpuinfo) + (flags.empty() ? "" : " | " + flags);
}

std::string DeviceFingerprint() {
  static const std::string fingerprint = DeviceFingerprintFromCpuInfo(ReadCpuInfo());
  return fingerprint;
}

}  // namespace collage
