#include "runtime/device_fingerprint.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

constexpr const char* kTwoX86Processors = R"(processor	: 0
vendor_id	: AuthenticAMD
model name	: AMD EPYC 9654 96-Core Processor
flags		: fpu vme avx512vl fma sse4_1 sse4_2 avx avx2 avx512f avx512bw avx512_vnni sha_ni
bogomips	: 4792.80

processor	: 1
model name	: Other CPU
flags		: fpu amx_tile
)";

constexpr const char* kArmProcessor = R"(processor	: 0
BogoMIPS	: 50.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics asimdhp asimddp sve i8mm bf16
CPU implementer	: 0x41
CPU part	: 0xd40
)";

TEST(DeviceFingerprintTest, X86IsModelAndKernelFlagsInAFixedOrder) {
  EXPECT_EQ(DeviceFingerprintFromCpuInfo(kTwoX86Processors),
            "AMD EPYC 9654 96-Core Processor | sse4_2 avx avx2 fma avx512f avx512bw avx512vl avx512_vnni");
}

TEST(DeviceFingerprintTest, FlagOrderInCpuInfoDoesNotMatter) {
  const std::string reordered = R"(model name	: AMD EPYC 9654 96-Core Processor
flags		: avx512_vnni avx512bw avx512f avx2 avx sse4_2 fma avx512vl
)";
  EXPECT_EQ(DeviceFingerprintFromCpuInfo(reordered), DeviceFingerprintFromCpuInfo(kTwoX86Processors));
}

TEST(DeviceFingerprintTest, ArmUsesImplementerPartAndFeatures) {
  EXPECT_EQ(DeviceFingerprintFromCpuInfo(kArmProcessor),
            "Arm implementer 0x41 part 0xd40 | asimd asimddp asimdhp i8mm bf16 sve");
}

TEST(DeviceFingerprintTest, UnreadableCpuInfoIsUnknown) { EXPECT_EQ(DeviceFingerprintFromCpuInfo(""), "unknown CPU"); }

TEST(DeviceFingerprintTest, ThisMachineHasAStableFingerprint) {
  const std::string fingerprint = DeviceFingerprint();
  EXPECT_FALSE(fingerprint.empty());
  EXPECT_EQ(fingerprint.find('\n'), std::string::npos);
  EXPECT_EQ(DeviceFingerprint(), fingerprint);
}

}  // namespace
}  // namespace collage
