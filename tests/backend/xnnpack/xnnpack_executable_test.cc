// How an XNNPACK executable meets its caller's buffers: channels-last ones are read and written
// in place, so a run after the buffers moved must set the runtime up on the new ones; an output
// that overlaps an input, or an input whose last bytes end a page (XNNPACK may read a little
// past the end), goes through staging.
#ifdef COLLAGE_WITH_XNNPACK

#include <sys/mman.h>
#include <unistd.h>
#include <xnnpack.h>

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "backend/boundary_layout.h"
#include "backend/library_test_util.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_executable.h"
#include "interpreter/interpreter.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"
#include "support/layout_conversion.h"

namespace collage {
namespace {

// conv2d + relu + add in channels-last: its result has the shape of the input %y.
Function ChannelsLastConvolution() {
  return WithBoundaryLayouts(testing::ConvolutionReluAdd(), PartitionLayouts::Uniform(Layout::kChannelsLast));
}

std::unique_ptr<Executable> Compile(const Function& function) {
  CompileOptions options;
  options.threads = 2;
  return XnnpackBackend().Compile(function, options);
}

// The function's arguments of `seed`, in channels-last buffers, and its result as the reference
// interpreter computes it (plain).
struct Case {
  std::vector<Tensor> inputs;
  Value expected;
};

Case MakeCase(const Function& function, uint64_t seed) {
  const std::vector<Value> arguments = RandomArguments(function, seed);
  Case made{{}, Evaluate(function, arguments)};
  for (const Value& argument : arguments) {
    const Tensor& tensor = argument.tensor();
    made.inputs.push_back(ConvertedLayout(tensor, Layout::kPlain, Layout::kChannelsLast, tensor.shape()));
  }
  return made;
}

::testing::AssertionResult MatchesExpected(const Tensor& channels_last_output, const Value& expected) {
  const Shape& logical = expected.tensor().shape();
  const Value plain = ConvertedLayout(channels_last_output, Layout::kChannelsLast, Layout::kPlain, logical);
  const Comparison comparison = CompareValues(plain, expected);
  if (comparison.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << comparison.first_mismatch;
}

TEST(XnnpackExecutableTest, RunsOnNewBuffersAfterTheyMove) {
  const Function function = ChannelsLastConvolution();
  const std::unique_ptr<Executable> executable = Compile(function);
  const Case first = MakeCase(function, 1), second = MakeCase(function, 2);
  std::vector<Tensor> first_outputs = AllocateResults(function), second_outputs = AllocateResults(function);
  for (int round = 0; round < 2; ++round) {
    executable->Run(first.inputs, first_outputs);
    EXPECT_TRUE(MatchesExpected(first_outputs[0], first.expected)) << "round " << round;
    executable->Run(second.inputs, second_outputs);
    EXPECT_TRUE(MatchesExpected(second_outputs[0], second.expected)) << "round " << round;
  }
  // Negative control: the two cases' results differ, so a run on stale buffers would show.
  EXPECT_FALSE(MatchesExpected(first_outputs[0], second.expected));
}

TEST(XnnpackExecutableTest, AnOutputOverlappingAnInputIsComputedAsIfApart) {
  // A convolution whose result has its input's shape: computed in place, it would overwrite
  // input rows that later result rows still read.
  const Function function = WithBoundaryLayouts(testing::ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 5, 9, 11), f32]) {
  %0 = constant(meta[0], Tensor[(5, 5, 3, 3), f32])
  nn.conv2d(%x, %0, padding=[1, 1, 1, 1])
}
)",
                                                                                       {{5, 5, 3, 3}}),
                                                PartitionLayouts::Uniform(Layout::kChannelsLast));
  const std::unique_ptr<Executable> executable = Compile(function);
  const Case made = MakeCase(function, 3);
  std::vector<Tensor> outputs = {made.inputs[0]};
  executable->Run(made.inputs, outputs);
  EXPECT_TRUE(MatchesExpected(outputs[0], made.expected));
}

// Two mapped pages, the second inaccessible: a buffer placed to end exactly at the boundary
// faults if anything reads past its end.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(size_t bytes) : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    mapping_ = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(mapping_, MAP_FAILED);
    EXPECT_EQ(mprotect(static_cast<std::byte*>(mapping_) + page_, page_, PROT_NONE), 0);
    data_ = static_cast<std::byte*>(mapping_) + page_ - bytes;
  }
  ~GuardedBuffer() { munmap(mapping_, 2 * page_); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  void* data() const { return data_; }

 private:
  size_t page_;
  void* mapping_ = nullptr;
  std::byte* data_ = nullptr;
};

TEST(XnnpackExecutableTest, BytesPastAnInputAreReadableOnlyWithinItsLastPage) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  auto* page_start = reinterpret_cast<std::byte*>(uintptr_t{1} << 20);  // never dereferenced
  EXPECT_TRUE(xnnpack::ExtraBytesReadable(page_start, 64));
  EXPECT_TRUE(xnnpack::ExtraBytesReadable(page_start, page - XNN_EXTRA_BYTES));
  EXPECT_FALSE(xnnpack::ExtraBytesReadable(page_start, page - XNN_EXTRA_BYTES + 4));
  EXPECT_FALSE(xnnpack::ExtraBytesReadable(page_start, page));
  EXPECT_FALSE(xnnpack::ExtraBytesReadable(page_start + page - 8, 8));
}

// A buffer ending a page is followed by readable bytes when the next page is mapped readable
// (inside a larger allocation), and not when it is a guard page.
TEST(XnnpackExecutableTest, BytesPastAPageEndAreReadableWhenTheNextPageIs) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* mapping = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapping, MAP_FAILED);
  auto* first_page = static_cast<std::byte*>(mapping);
  EXPECT_TRUE(xnnpack::ExtraBytesReadable(first_page, page));
  EXPECT_TRUE(xnnpack::ExtraBytesReadable(first_page + page - 8, 8));
  ASSERT_EQ(mprotect(first_page + page, page, PROT_NONE), 0);
  EXPECT_FALSE(xnnpack::ExtraBytesReadable(first_page, page));
  EXPECT_FALSE(xnnpack::ExtraBytesReadable(first_page + page - 8, 8));
  EXPECT_TRUE(xnnpack::ExtraBytesReadable(first_page, page - XNN_EXTRA_BYTES));
  munmap(mapping, 2 * page);
}

// Whether or not a kernel of this machine reads past an input, one ending a page runs.
TEST(XnnpackExecutableTest, AnInputEndingAPageIsNotReadPastItsEnd) {
  const Function function = ChannelsLastConvolution();
  const std::unique_ptr<Executable> executable = Compile(function);
  Case made = MakeCase(function, 4);
  std::vector<std::unique_ptr<GuardedBuffer>> guarded;
  std::vector<Tensor> inputs;
  for (const Tensor& input : made.inputs) {
    guarded.push_back(std::make_unique<GuardedBuffer>(input.NumBytes()));
    std::memcpy(guarded.back()->data(), input.raw_data(), input.NumBytes());
    inputs.push_back(Tensor::Borrow(input.dtype(), input.shape(), guarded.back()->data()));
  }
  std::vector<Tensor> outputs = AllocateResults(function);
  executable->Run(inputs, outputs);
  EXPECT_TRUE(MatchesExpected(outputs[0], made.expected));
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
