// Values read by several ops of one group: the generated kernel computes an expensive shared
// value once (a scratch buffer) instead of inlining it into every reader, so the code the
// compiler sees after always-inlining grows linearly with a chain of diamonds, not as 2^depth;
// and the kernels still match the reference interpreter.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "backend/backend_test_util.h"
#include "backend/native/group_codegen.h"
#include "backend/native/native_backend.h"
#include "backend/native/native_test_util.h"
#include "testing/graph_builders.h"
#include "ir/type_inference.h"

namespace collage {
namespace {

// The characters of `source` once every NATIVE_INLINE member function called from `Run` is
// inlined, recursively, as the compiler does (calls counted once per occurrence).
double InlinedSize(const std::string& source) {
  static const std::regex definition(R"(NATIVE_INLINE \S+ (\w+)\(.*)");
  static const std::regex call(R"((\w+)\()");
  std::map<std::string, std::string> bodies;
  std::istringstream lines(source);
  std::string line;
  std::string run;
  bool in_run = false;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_search(line, match, definition)) bodies[match[1]] = line.substr(line.find('{', match.position(1)));
    if (line.find("void Run(") != std::string::npos) in_run = true;
    if (in_run) run += line + "\n";
    if (in_run && line == "  }") in_run = false;
  }
  std::map<std::string, double> sizes;
  const auto size_of = [&](const std::string& text, const auto& self) -> double {
    double size = static_cast<double>(text.size());
    for (std::sregex_iterator it(text.begin(), text.end(), call), end; it != end; ++it) {
      const std::string callee = (*it)[1];
      if (!bodies.count(callee)) continue;
      if (!sizes.count(callee)) sizes[callee] = self(bodies.at(callee), self);
      size += sizes.at(callee);
    }
    return size;
  };
  return size_of(run, size_of);
}

// x_{k+1} = tanh(x_k) + sigmoid(x_k) for `depth` steps after a dense layer: each value is
// read twice, and the values stay within (-1, 2).
Function DiamondChain(int depth, bool with_anchors) {
  std::string text = with_anchors ? "def @main(%x: Tensor[(4, 32), f32], %w: Tensor[(32, 32), f32]) {\n"
                                   : "def @main(%x: Tensor[(4, 32), f32]) {\n";
  std::string previous = "%x";
  if (with_anchors) {
    text += "  %d = nn.dense(%x, %w)\n";
    previous = "%d";
  }
  for (int k = 0; k < depth; ++k) {
    const std::string name = "%" + std::to_string(k);
    text += "  " + name + " = add(tanh(" + previous + "), sigmoid(" + previous + "))\n";
    previous = name;
    if (with_anchors && k == depth / 2) {
      text += "  %m = subtract(" + previous + ", mean(" + previous + ", axis=[1], keepdims=1))\n";
      previous = "%m";
    }
  }
  text += with_anchors ? "  (" + previous + ", sum(" + previous + ", axis=[1]))\n}\n" : "  " + previous + "\n}\n";
  return testing::ParseMainFunction(text);
}

TEST(NativeSharedValuesTest, InlinedSizeOfTheOracleDoublesPerLevelOfASourceThatCallsTwice) {
  // Negative control: a hand-written kernel whose functions each call the previous one twice.
  std::string source = "  template <typename I> NATIVE_INLINE float f0(I i) const { return i; }\n";
  for (int k = 1; k <= 30; ++k) {
    source += "  template <typename I> NATIVE_INLINE float f" + std::to_string(k) + "(I i) const { return f" +
              std::to_string(k - 1) + "(i) + f" + std::to_string(k - 1) + "(i); }\n";
  }
  source += "  void Run(const native::Threads& threads) {\n    o0[0] = f30(0);\n  }\n";
  EXPECT_GT(InlinedSize(source), 1e9);
}

TEST(NativeSharedValuesTest, InlinedCodeGrowsLinearlyWithAChainOfDiamonds) {
  for (bool with_anchors : {false, true}) {
    const double shallow = InlinedSize(native::GenerateGroupKernel(DiamondChain(20, with_anchors), "k").source);
    const double deep = InlinedSize(native::GenerateGroupKernel(DiamondChain(40, with_anchors), "k").source);
    EXPECT_LT(deep, 2.5 * shallow) << (with_anchors ? "with" : "without") << " anchors: " << shallow << " -> " << deep;
    EXPECT_LT(deep, 40 * 1500) << (with_anchors ? "with" : "without") << " anchors";
  }
}

TEST(NativeSharedValuesTest, ChainsOfDiamondsMatchTheReference) {
  for (bool with_anchors : {false, true}) {
    const Function function = DiamondChain(40, with_anchors);
    std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
    EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 5))
        << (with_anchors ? "with" : "without") << " anchors";
  }
}

// A shared value cheap enough to recompute stays inlined: the GELU-like readers of a biased
// dense result are computed in the dense's epilogue, with no element loop after it.
TEST(NativeSharedValuesTest, CheapSharedValuesStayFusedInTheAnchorsEpilogue) {
  const Function function = testing::ParseMainFunction(R"(
def @main(%x: Tensor[(4, 32), f32], %w: Tensor[(32, 32), f32], %b: Tensor[(32), f32]) {
  %0 = add(nn.dense(%x, %w), %b)
  multiply(%0, sigmoid(%0))
}
)");
  const std::string source = native::GenerateGroupKernel(function, "k").source;
  EXPECT_EQ(source.find("ParallelFor"), std::string::npos) << source;
  std::unique_ptr<Executable> executable = NativeBackend().Compile(function, testing::NativeTestOptions());
  EXPECT_TRUE(testing::ExecutableMatchesReference(*executable, function, 6));
}


// exp(x) and tanh(x) each feed a dense layer, so both get scratch buffers. The functions are the
// same but hold those values at addresses in either order: the kernel's source (the kernel
// cache's key) must not depend on it.
TEST(NativeSharedValuesTest, TheSourceDoesNotDependOnWhereNodesWereAllocated) {
  const auto build = [](bool exp_first) {
    const Var x = MakeVar("x", testing::F32({4, 32}));
    const Var w = MakeVar("w", testing::F32({32, 32}));
    Expr first = CallOp(exp_first ? "exp" : "tanh", {x});
    Expr second = CallOp(exp_first ? "tanh" : "exp", {x});
    const Expr exp = exp_first ? first : second;
    const Expr tanh = exp_first ? second : first;
    Function function =
        MakeFunction({x, w}, CallOp("add", {CallOp("nn.dense", {exp, w}), CallOp("nn.dense", {tanh, w})}));
    InferType(function);
    return std::make_pair(function, exp.get() < tanh.get());
  };
  // Builds in alternating orders, all kept alive, until the allocator has given both address
  // orders (else the comparison below could not fail).
  std::vector<std::pair<Function, bool>> builds;
  bool exp_below = false, exp_above = false;
  for (int attempt = 0; attempt < 40 && !(exp_below && exp_above); ++attempt) {
    builds.push_back(build(attempt % 2 == 0));
    (builds.back().second ? exp_below : exp_above) = true;
  }
  ASSERT_TRUE(exp_below && exp_above);
  const std::string source = native::GenerateGroupKernel(builds.front().first, "k").source;
  EXPECT_NE(source.find("* m"), std::string::npos) << source;  // scratch buffers are declared
  for (const auto& [function, exp_lower] : builds) {
    EXPECT_EQ(native::GenerateGroupKernel(function, "k").source, source) << "exp below tanh: " << exp_lower;
  }
}

}  // namespace
}  // namespace collage
