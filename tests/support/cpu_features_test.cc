#include "support/cpu_features.h"

#include <gtest/gtest.h>

namespace collage {
namespace {

TEST(CpuFeaturesTest, FlagsComeFromTheFirstProcessor) {
  const std::string cpuinfo =
      "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu avx2 fma\n\nprocessor\t: 1\nflags\t\t: avx512f\n";
  EXPECT_EQ(CpuInfoValue(cpuinfo, "model name"), "Test CPU");
  EXPECT_EQ(CpuFlags(cpuinfo), (std::set<std::string>{"fpu", "avx2", "fma"}));
  EXPECT_EQ(CpuInfoValue(cpuinfo, "missing"), "");
}

TEST(CpuFeaturesTest, Avx2AloneHasNoNativeReducedPrecision) {
  const ReducedPrecisionIsa isa = ReducedPrecisionIsaFromFlags({"avx", "avx2", "fma", "f16c"});
  EXPECT_TRUE(isa.avx2);
  EXPECT_FALSE(isa.avx512);
  EXPECT_FALSE(isa.vnni);
  EXPECT_FALSE(isa.native_bf16());
  EXPECT_EQ(DescribeReducedPrecisionIsa(isa), "avx2; int8: no vnni; bf16: emulated");
}

TEST(CpuFeaturesTest, VnniBf16AndAmxAreRecognized) {
  const ReducedPrecisionIsa cooper_lake = ReducedPrecisionIsaFromFlags(
      {"avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16"});
  EXPECT_TRUE(cooper_lake.avx512);
  EXPECT_TRUE(cooper_lake.vnni);
  EXPECT_TRUE(cooper_lake.native_bf16());
  EXPECT_EQ(DescribeReducedPrecisionIsa(cooper_lake), "avx512; int8: vnni; bf16: avx512_bf16");
  const ReducedPrecisionIsa alder_lake = ReducedPrecisionIsaFromFlags({"avx2", "avx_vnni"});
  EXPECT_TRUE(alder_lake.vnni);
  EXPECT_FALSE(alder_lake.native_bf16());
  const ReducedPrecisionIsa sapphire_rapids = ReducedPrecisionIsaFromFlags(
      {"avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq", "amx_tile", "amx_bf16", "amx_int8"});
  EXPECT_TRUE(sapphire_rapids.amx);
  EXPECT_TRUE(sapphire_rapids.native_bf16());
  EXPECT_FALSE(ReducedPrecisionIsaFromFlags({"amx_tile", "amx_bf16"}).amx);
}

}  // namespace
}  // namespace collage
