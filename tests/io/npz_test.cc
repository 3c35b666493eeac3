#include "io/npz.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>

#include "build_paths.h"
#include "io/npy.h"
#include "io/npz_test_util.h"
#include "io/zip_archive.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

using testing::MakeNpy;
using testing::MakeZip;
using testing::ToBytes;

constexpr const char* kPython = "/usr/bin/python3";

Tensor HalfTensor(const std::vector<uint16_t>& bits) {
  Tensor tensor = Tensor::Zeros(DType::kF16, {static_cast<int64_t>(bits.size())});
  std::memcpy(tensor.raw_data(), bits.data(), bits.size() * sizeof(uint16_t));
  return tensor;
}

// The arrays of npz_cross_check.py's expected_arrays(), spelled out by hand.
NamedTensors ExpectedArrays() {
  std::vector<float> large(300000);
  for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<float>(i % 251);
  return {
      {"f32", Tensor::FromVector<float>({-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f}, {2, 3})},
      {"f16", HalfTensor({0x0000, 0x3400, 0xc100, 0x7bff})},  // 0, 0.25, -2.5, 65504
      {"i8", Tensor::FromVector<int8_t>({-128, -1, 0, 1, 127}, {5})},
      {"u8", Tensor::FromVector<uint8_t>({0, 1, 128, 255}, {4})},
      {"i32", Tensor::FromVector<int32_t>({std::numeric_limits<int32_t>::min(), 0, 2147483647}, {3})},
      {"i64", Tensor::FromVector<int64_t>(
                  {std::numeric_limits<int64_t>::min(), 0, 9223372036854775807LL, 1234567890123LL}, {4})},
      {"bool", Tensor::FromVector<bool>({true, false, true}, {3})},
      {"f64", Tensor::FromVector<double>({1e300, -0.1, 0.0}, {3})},
      {"i16", Tensor::FromVector<int16_t>({-32768, 0, 32767}, {3})},
      {"u16", Tensor::FromVector<uint16_t>({0, 65535}, {2})},
      {"u32", Tensor::FromVector<uint32_t>({0, 4294967295u}, {2})},
      {"u64", Tensor::FromVector<uint64_t>({0, 18446744073709551615ull}, {2})},
      {"scalar", Tensor::FromVector<float>({3.5f}, {})},
      {"empty", Tensor::Zeros(DType::kF32, {0, 3})},
      {"odd_shape", Tensor::FromVector<int32_t>({0, 1, 2, 3, 4, 5}, {1, 1, 3, 1, 2})},
      {"large", Tensor::FromVector<float>(large, {300000})},
  };
}

void ExpectSameArrays(const NamedTensors& actual, const NamedTensors& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(actual[i].first, expected[i].first);
    EXPECT_TRUE(actual[i].second.BitwiseEqual(expected[i].second))
        << "array '" << expected[i].first << "': got " << DTypeName(actual[i].second.dtype()) << " "
        << ShapeToString(actual[i].second.shape());
  }
}

// Runs a command line; returns its exit status (-1 when it did not exit normally).
int RunCommand(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool PythonHasNumpy() { return RunCommand(std::string(kPython) + " -c 'import numpy' >/dev/null 2>&1") == 0; }

std::string CrossCheckScript() { return std::string(COLLAGE_SOURCE_DIR) + "/tests/io/npz_cross_check.py"; }

class NpzFileTest : public ::testing::Test {
 protected:
  std::string PathOf(const std::string& name) const { return directory_->PathOf(name); }
  void SetUp() override { directory_ = std::make_unique<testing::TempDirectory>(); }
  void TearDown() override { directory_.reset(); }

  std::unique_ptr<testing::TempDirectory> directory_;
};

TEST(NpzTest, RoundTripsEveryDTypeAndShapeInMemory) {
  const NamedTensors arrays = ExpectedArrays();
  ExpectSameArrays(ReadNpzFromMemory(WriteNpzToMemory(arrays), "memory.npz"), arrays);
}

TEST(NpzTest, RoundTripKeepsNameOrder) {
  const NamedTensors arrays = {{"zeta", Tensor::FromVector<int32_t>({1}, {1})},
                               {"alpha", Tensor::FromVector<int32_t>({2}, {1})},
                               {"with.dots.npy", Tensor::FromVector<int32_t>({3}, {1})}};
  const NamedTensors read = ReadNpzFromMemory(WriteNpzToMemory(arrays), "memory.npz");
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[0].first, "zeta");
  EXPECT_EQ(read[1].first, "alpha");
  EXPECT_EQ(read[2].first, "with.dots.npy");
  EXPECT_EQ(read[2].second.data<int32_t>()[0], 3);
}

TEST(NpzTest, EmptyArchiveRoundTrips) { EXPECT_TRUE(ReadNpzFromMemory(WriteNpzToMemory({}), "memory.npz").empty()); }

TEST(NpzTest, NonCanonicalBoolBytesReadAsTrue) {
  const auto archive = MakeZip({{"b.npy", MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                                                  std::string("\x00\x07\x01", 3))}});
  const NamedTensors arrays = ReadNpzFromMemory(archive, "x.npz");
  ASSERT_EQ(arrays.size(), 1u);
  const auto* bytes = static_cast<const uint8_t*>(arrays[0].second.raw_data());
  EXPECT_EQ(bytes[0], 0);
  EXPECT_EQ(bytes[1], 1);
  EXPECT_EQ(bytes[2], 1);
}

TEST(NpzTest, AcceptsHeaderVariantsNumpyMayWrite) {
  // Keys in another order, double quotes, no trailing comma, Python 2 long dims, '<' for one-byte types.
  const auto archive = MakeZip({{"a.npy", MakeNpy("{\"shape\": (2L, 1), \"descr\": \"<i1\", \"fortran_order\": False}",
                                                  std::string("\x05\xfb", 2))}});
  const NamedTensors arrays = ReadNpzFromMemory(archive, "x.npz");
  ASSERT_EQ(arrays.size(), 1u);
  EXPECT_TRUE(arrays[0].second.BitwiseEqual(Tensor::FromVector<int8_t>({5, -5}, {2, 1})));
}

TEST(NpzTest, TruncatedDataNamesFileEntryAndSizes) {
  const auto archive = MakeZip(
      {{"a.npy", MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 10), }", std::string(12, '\0'))}});
  try {
    ReadNpzFromMemory(archive, "x.npz");
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "x.npz: entry 'a.npy': header says 400 bytes of data (f32 (10, 10)) but only 12 remain");
  }
}

// Reading an archive with one entry holding `npy` fails with a message containing `expected`.
void ExpectNpyRejected(const std::string& npy, const std::string& expected) {
  const auto archive = MakeZip({{"a.npy", npy}});
  try {
    ReadNpzFromMemory(archive, "x.npz");
    ADD_FAILURE() << "expected an Error containing: " << expected;
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("x.npz: entry 'a.npy': "), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(NpzTest, RejectsUnsupportedArrays) {
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", std::string(4, '\0')),
                    "fortran_order=True");
  ExpectNpyRejected(MakeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", std::string(4, '\0')),
                    "big-endian arrays ('>f4') are not supported");
  ExpectNpyRejected(MakeNpy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')),
                    "object arrays ('|O') are not supported");
  ExpectNpyRejected(MakeNpy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')),
                    "unsupported dtype '<c8'");
  ExpectNpyRejected(MakeNpy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", ""),
                    "structured (record) dtypes are not supported");
}

TEST(NpzTest, RejectsMalformedHeaders) {
  ExpectNpyRejected("not an npy file", "not a .npy file (bad magic)");
  ExpectNpyRejected(std::string("\x93NUMPY\x04\x00\x10\x00", 10), ".npy version 4.0 is not supported");
  ExpectNpyRejected(std::string("\x93NUMPY\x01\x00\x90\x01{}", 12), ".npy header says 400 bytes but only 2 remain");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'shape': (1,), }", std::string(4, '\0')), "no 'fortran_order' key");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", ""),
                    "unexpected key 'x'");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", ""),
                    "expected a non-negative integer");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""),
                    "dimension too large");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""),
                    "shape (4294967296, 4294967296) is too large");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,) ", ""), "expected '}'");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", std::string(5, '\0')),
                    "header says 4 bytes of data (f32 (1)) but 5 remain");
}

// Found by the npz fuzzer: text read from the archive (a dtype, a header, an entry name) is
// quoted in the message, and its line breaks must not split the message.
TEST(NpzTest, TextFromTheArchiveIsQuotedOnOneLine) {
  ExpectNpyRejected(MakeNpy("{'descr': '<c\n8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')),
                    "unsupported dtype '<c\\n8'");
  ExpectNpyRejected(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), '\tx\n': 1}", ""),
                    "unexpected key '\\tx\\n'");
  const std::string npy = MakeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", "x");
  try {
    ReadNpzFromMemory(MakeZip({{"a\nb.npy", npy + "extra"}}), "x.npz");
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("a\\nb.npy"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(NpzTest, RejectsDuplicateArrayNames) {
  const std::string npy = MakeNpy("{'descr': '|u1', 'fortran_order': False, 'shape': (), }", "x");
  EXPECT_THROW(ReadNpzFromMemory(MakeZip({{"a.npy", npy}, {"a", npy}}), "x.npz"), Error);
  EXPECT_THROW(WriteNpzToMemory({{"a", Tensor::Zeros(DType::kU8, {})}, {"a", Tensor::Zeros(DType::kU8, {})}}), Error);
}

TEST(NpzTest, WritingBFloat16OrUndefinedTensorsIsAnError) {
  try {
    WriteNpzToMemory({{"w", Tensor::Zeros(DType::kBF16, {2})}});
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("array 'w': bf16 has no numpy dtype"), std::string::npos) << error.what();
  }
  EXPECT_THROW(WriteNpzToMemory({{"u", Tensor()}}), Error);
  EXPECT_THROW(WriteNpzToMemory({{"", Tensor::Zeros(DType::kU8, {})}}), Error);
}

TEST(NpzTest, CorruptDataFailsTheCrcCheck) {
  auto archive = WriteNpzToMemory({{"a", Tensor::FromVector<int32_t>({1, 2, 3}, {3})}});
  // The array's bytes are stored as they are: flip the last.
  const std::string data("\x01\0\0\0\x02\0\0\0\x03\0\0\0", 12);
  const size_t data_offset = testing::FindBytes(archive, data);
  ASSERT_LT(data_offset, archive.size());
  archive[data_offset + data.size() - 1] ^= std::byte{0x01};
  try {
    ReadNpzFromMemory(archive, "x.npz");
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("x.npz: entry 'a.npy': CRC-32 mismatch"), std::string::npos)
        << error.what();
  }
}

TEST(NpzTest, GarbageIsNotAZipArchive) {
  EXPECT_THROW(ReadNpzFromMemory(ToBytes(""), "x.npz"), Error);
  EXPECT_THROW(ReadNpzFromMemory(ToBytes(std::string(1000, 'z')), "x.npz"), Error);
}

// Every truncation and every single-byte corruption of a valid archive either reads
// or gives an Error; none crashes (the sanitizer build checks the memory accesses).
TEST(NpzTest, EveryTruncationAndByteFlipIsHandled) {
  const auto archive = WriteNpzToMemory(
      {{"a", Tensor::FromVector<int32_t>({1, 2, 3}, {3})}, {"b", Tensor::FromVector<float>({0.5f}, {})}});
  for (size_t size = 0; size < archive.size(); ++size) {
    std::span<const std::byte> truncated(archive.data(), size);
    EXPECT_THROW(ReadNpzFromMemory(truncated, "x.npz"), Error) << "truncated to " << size << " bytes";
  }
  int errors = 0;
  for (size_t position = 0; position < archive.size(); ++position) {
    auto corrupted = archive;
    corrupted[position] ^= std::byte{0xff};
    try {
      ReadNpzFromMemory(corrupted, "x.npz");
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()).rfind("x.npz: ", 0), 0u) << error.what();
      ++errors;
    }
  }
  // Only bytes no reader looks at (versions, dates, attributes) may change silently.
  EXPECT_GT(errors, static_cast<int>(archive.size()) / 2);
}

TEST_F(NpzFileTest, RoundTripsThroughAFile) {
  const NamedTensors arrays = ExpectedArrays();
  WriteNpz(PathOf("a.npz"), arrays);
  ExpectSameArrays(ReadNpz(PathOf("a.npz")), arrays);
}

TEST_F(NpzFileTest, MissingFileIsAnErrorNamingIt) {
  const std::string path = PathOf("missing.npz");
  try {
    ReadNpz(path);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot open '" + path + "': No such file or directory");
  }
  EXPECT_THROW(WriteNpz(PathOf("no/such/dir/out.npz"), {}), Error);
}

TEST_F(NpzFileTest, TruncatedFileIsAnErrorNamingIt) {
  const std::string path = PathOf("truncated.npz");
  WriteNpz(path, ExpectedArrays());
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  try {
    ReadNpz(path);
    FAIL() << "expected an Error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST_F(NpzFileTest, FailedWriteLeavesNoFile) {
  EXPECT_THROW(WriteNpz(PathOf("bad.npz"), {{"w", Tensor::Zeros(DType::kBF16, {2})}}), Error);
  EXPECT_FALSE(std::filesystem::exists(PathOf("bad.npz")));
}

class NumpyCrossCheckTest : public NpzFileTest {
 protected:
  void SetUp() override {
    NpzFileTest::SetUp();
    if (!PythonHasNumpy()) GTEST_SKIP() << kPython << " cannot import numpy (scripts/setup.sh installs python3-numpy)";
  }
  int RunScript(const std::string& mode, const std::string& path) {
    return RunCommand(std::string(kPython) + " " + CrossCheckScript() + " " + mode + " '" + path + "'");
  }
};

TEST_F(NumpyCrossCheckTest, ReadsWhatNumpyWrites) {
  for (const char* mode : {"savez", "savez_compressed", "savez_streamed"}) {
    SCOPED_TRACE(mode);
    const std::string path = PathOf(std::string(mode) + ".npz");
    ASSERT_EQ(RunScript(mode, path), 0);
    ExpectSameArrays(ReadNpz(path), ExpectedArrays());
  }
}

TEST_F(NumpyCrossCheckTest, NumpyReadsWhatWeWrite) {
  const std::string path = PathOf("ours.npz");
  WriteNpz(path, ExpectedArrays());
  EXPECT_EQ(RunScript("check", path), 0);
}

// Like EveryTruncationAndByteFlipIsHandled, for deflate-compressed entries.
TEST_F(NumpyCrossCheckTest, EveryCorruptionOfACompressedArchiveIsHandled) {
  const std::string path = PathOf("small.npz");
  ASSERT_EQ(RunScript("savez_compressed_small", path), 0);
  const std::vector<std::byte> archive = ToBytes(ReadFileText(path));
  NamedTensors expected = ExpectedArrays();
  expected.pop_back();  // "large"
  ExpectSameArrays(ReadNpzFromMemory(archive, "small.npz"), expected);
  for (size_t size = 0; size < archive.size(); ++size) {
    EXPECT_THROW(ReadNpzFromMemory(std::span(archive).first(size), "small.npz"), Error) << size << " bytes";
  }
  for (size_t position = 0; position < archive.size(); ++position) {
    auto corrupted = archive;
    corrupted[position] ^= std::byte{0x5a};
    try {
      ReadNpzFromMemory(corrupted, "small.npz");
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()).rfind("small.npz: ", 0), 0u) << error.what();
    }
  }
}

TEST_F(NumpyCrossCheckTest, PythonZipfileReadsOurArchives) {
  const std::string path = PathOf("ours.zip");
  const auto archive = MakeZip({{"a", "hello"}, {"dir/b", ""}});
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(archive.data()), static_cast<std::streamsize>(archive.size()));
  const std::string command = std::string(kPython) + " " + CrossCheckScript() + " zip_contents '" + path + "'";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), &pclose);
  ASSERT_TRUE(pipe);
  std::string output;
  char buffer[256];
  while (fgets(buffer, sizeof(buffer), pipe.get()) != nullptr) output += buffer;
  // name, size, CRC-32 (crc32("hello") = 0x3610a686), contents in hex.
  EXPECT_EQ(output, "a 5 907060870 68656c6c6f\ndir/b 0 0 \n");
}

TEST_F(NumpyCrossCheckTest, HeadersAreByteIdenticalToNumpys) {
  const std::string path = PathOf("savez.npz");
  ASSERT_EQ(RunScript("savez", path), 0);
  const auto bytes = ToBytes(ReadFileText(path));
  ZipReader reader(bytes, path);
  const NamedTensors expected = ExpectedArrays();
  ASSERT_EQ(reader.entries().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::vector<std::byte> npy = reader.Extract(reader.entries()[i]);
    const std::string header = EncodeNpyHeader(expected[i].second.dtype(), expected[i].second.shape(), "test");
    ASSERT_GE(npy.size(), header.size());
    EXPECT_EQ(testing::ToString(std::span(npy).first(header.size())), header) << expected[i].first;
  }
}

}  // namespace
}  // namespace collage
