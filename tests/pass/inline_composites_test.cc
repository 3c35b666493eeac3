#include "pass/inline_composites.h"

#include <gtest/gtest.h>

#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "ir/structural_equal.h"
#include "runtime/compare.h"

namespace collage {
namespace {

// One partition per backend; "lib"'s wraps its ops in a Composite that wraps another one.
constexpr const char* kWrapped = R"(
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = fn (%a: Tensor[(2, 3), f32], %b: Tensor[(2, 3), f32]) attrs(Compiler="lib", Primitive=1, global_symbol="lib_0") {
    %1 = fn (%c: Tensor[(2, 3), f32], %d: Tensor[(2, 3), f32]) attrs(Composite="lib.add_relu") {
      %2 = fn (%e: Tensor[(2, 3), f32]) attrs(Composite="lib.relu") { nn.relu(%e) }
      %2(add(%c, %d))
    }
    multiply(%1(%b, %a), %a)
  }
  %3 = fn (%f: Tensor[(2, 3), f32]) attrs(Compiler="other", Primitive=1, global_symbol="other_1") {
    %4 = fn (%g: Tensor[(2, 3), f32]) attrs(Composite="other.tanh") { tanh(%g) }
    %4(%f)
  }
  %3(%0(%x, %y))
}
)";

// kWrapped with lib's Composites inlined by hand: the arguments bound in order (%b, %a).
constexpr const char* kLibInlined = R"(
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = fn (%a: Tensor[(2, 3), f32], %b: Tensor[(2, 3), f32]) attrs(Compiler="lib", Primitive=1, global_symbol="lib_0") {
    multiply(nn.relu(add(%b, %a)), %a)
  }
  %3 = fn (%f: Tensor[(2, 3), f32]) attrs(Compiler="other", Primitive=1, global_symbol="other_1") {
    %4 = fn (%g: Tensor[(2, 3), f32]) attrs(Composite="other.tanh") { tanh(%g) }
    %4(%f)
  }
  %3(%0(%x, %y))
}
)";

TEST(InlineCompositesTest, InlinesNestedCompositesBindingTheirArguments) {
  const Module wrapped = ParseModule(kWrapped, "wrapped");
  const Function lib = Downcast<FunctionNode>(As<CallNode>(As<CallNode>(wrapped.main()->body)->args[0])->callee);
  const Function inlined = InlineCompositeCalls(lib);
  const Module expected_module = ParseModule(kLibInlined, "expected");
  const Function expected =
      Downcast<FunctionNode>(As<CallNode>(As<CallNode>(expected_module.main()->body)->args[0])->callee);
  EXPECT_TRUE(StructuralEqual(inlined, expected));
  EXPECT_EQ(InlineCompositeCalls(inlined), inlined) << "nothing left to inline";
}

TEST(InlineCompositesTest, InlinesOnlyThePartitionsOfTheBackendsAsked) {
  const Module wrapped = ParseModule(kWrapped, "wrapped");
  const Module lib_only =
      InlineCompositeCallsOfPartitions(wrapped, [](const std::string& backend) { return backend == "lib"; });
  EXPECT_TRUE(StructuralEqual(lib_only, ParseModule(kLibInlined, "expected")));
  EXPECT_FALSE(StructuralEqual(lib_only, wrapped));
  const Module none = InlineCompositeCallsOfPartitions(wrapped, [](const std::string&) { return false; });
  EXPECT_TRUE(StructuralEqual(none, wrapped));
  const std::vector<Value> args = RandomArguments(wrapped.main(), 3);
  EXPECT_TRUE(CompareValues(Evaluate(lib_only.main(), args), Evaluate(wrapped.main(), args)).ok());
}

}  // namespace
}  // namespace collage
