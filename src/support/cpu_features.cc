#include "support/cpu_features.h"

#include <fstream>
#include <iterator>
#include <sstream>

namespace collage {
namespace {

std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::string ReadCpuInfo() {
  std::ifstream in("/proc/cpuinfo");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string CpuInfoValue(std::string_view cpuinfo, std::string_view key) {
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

std::set<std::string> CpuFlags(std::string_view cpuinfo) {
  std::string listed = CpuInfoValue(cpuinfo, "flags");
  if (listed.empty()) listed = CpuInfoValue(cpuinfo, "Features");
  std::set<std::string> present;
  std::istringstream words(listed);
  for (std::string word; words >> word;) present.insert(word);
  return present;
}

ReducedPrecisionIsa ReducedPrecisionIsaFromFlags(const std::set<std::string>& flags) {
  const auto has = [&](const char* flag) { return flags.count(flag) > 0; };
  ReducedPrecisionIsa isa;
  isa.avx2 = has("avx2");
  isa.avx512 = has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq");
  isa.vnni = has("avx_vnni") || has("avx512_vnni");
  isa.avx512_bf16 = has("avx512_bf16");
  isa.amx = has("amx_tile") && has("amx_bf16") && has("amx_int8");
  return isa;
}

const ReducedPrecisionIsa& DetectReducedPrecisionIsa() {
  static const ReducedPrecisionIsa isa = ReducedPrecisionIsaFromFlags(CpuFlags(ReadCpuInfo()));
  return isa;
}

std::string DescribeReducedPrecisionIsa(const ReducedPrecisionIsa& isa) {
  std::string text = isa.avx512 ? "avx512" : isa.avx2 ? "avx2" : "no avx2";
  text += std::string("; int8: ") + (isa.amx ? "amx" : isa.vnni ? "vnni" : "no vnni");
  text += std::string("; bf16: ") + (isa.amx ? "amx" : isa.avx512_bf16 ? "avx512_bf16" : "emulated");
  return text;
}

}  // namespace collage
