// What /proc/cpuinfo says about the CPU: its "key : value" lines, its instruction-set flags, and
// the reduced-precision arithmetic those flags provide natively.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace collage {

// The text of /proc/cpuinfo (empty when it cannot be read).
std::string ReadCpuInfo();
// The value of the first "key : value" line whose key is `key` (the first processor's); empty
// when there is none.
std::string CpuInfoValue(std::string_view cpuinfo, std::string_view key);
// The words of the first processor's "flags" (x86) or "Features" (Arm) line.
std::set<std::string> CpuFlags(std::string_view cpuinfo);

// The instruction sets reduced-precision kernels dispatch on. An int8 dot product is native
// with VNNI (AVX-VNNI or AVX512-VNNI) or AMX-INT8; without them AVX2 still computes it in 16-bit
// pairs. bf16 is native only with AVX512-BF16 or AMX-BF16; elsewhere it is emulated.
struct ReducedPrecisionIsa {
  bool avx2 = false;
  bool avx512 = false;  // AVX-512 F, BW, VL and DQ
  bool vnni = false;
  bool avx512_bf16 = false;
  bool amx = false;  // AMX tiles with both bf16 and int8
  bool native_bf16() const { return avx512_bf16 || amx; }
};

ReducedPrecisionIsa ReducedPrecisionIsaFromFlags(const std::set<std::string>& flags);
// This machine's, read once.
const ReducedPrecisionIsa& DetectReducedPrecisionIsa();
// "avx2; int8: no vnni; bf16: emulated", "avx512; int8: amx; bf16: amx".
std::string DescribeReducedPrecisionIsa(const ReducedPrecisionIsa& isa);

}  // namespace collage
