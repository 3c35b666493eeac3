#include "runtime/device_fingerprint.h"

#include <array>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

namespace collage {
namespace {

// The extensions kernels choose code paths by, in the order the fingerprint lists them.
constexpr std::array<std::string_view, 25> kKernelFlags = {
    "sse4_2",   "avx",      "avx2",        "fma",         "f16c",        "avx_vnni", "avx512f",  "avx512dq", "avx512cd",
    "avx512bw", "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8", "asimd",
    "asimddp",  "asimdhp",  "i8mm",        "bf16",        "sve",         "sve2",     "sme",
};

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

// The value of the first "key : value" line whose key is `key`; empty when there is none.
std::string FirstValue(std::string_view cpuinfo, std::string_view key) {
  size_t start = 0;
  while (start < cpuinfo.size()) {
    const size_t end = std::min(cpuinfo.find('\n', start), cpuinfo.size());
    const std::string_view line = cpuinfo.substr(start, end - start);
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos && Trim(line.substr(0, colon)) == key) {
      return std::string(Trim(line.substr(colon + 1)));
    }
    start = end + 1;
  }
  return "";
}

std::string ModelName(std::string_view cpuinfo) {
  if (std::string name = FirstValue(cpuinfo, "model name"); !name.empty()) return name;
  const std::string implementer = FirstValue(cpuinfo, "CPU implementer");
  const std::string part = FirstValue(cpuinfo, "CPU part");
  if (!implementer.empty() || !part.empty()) return "Arm implementer " + implementer + " part " + part;
  return "unknown CPU";
}

std::string KernelFlags(std::string_view cpuinfo) {
  std::string listed = FirstValue(cpuinfo, "flags");
  if (listed.empty()) listed = FirstValue(cpuinfo, "Features");
  std::set<std::string> present;
  std::istringstream words(listed);
  for (std::string word; words >> word;) present.insert(word);
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
  static const std::string fingerprint = [] {
    std::ifstream in("/proc/cpuinfo");
    const std::string cpuinfo((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return DeviceFingerprintFromCpuInfo(cpuinfo);
  }();
  return fingerprint;
}

}  // namespace collage
