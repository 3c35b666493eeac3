#include "backend/boundary_layout.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "backend/backend.h"
#include "backend/backend_test_util.h"
#include "backend/library_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/type_inference.h"
#include "runtime/compare.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;
using testing::ParseMainWithRandomConstants;

// Partitions whose rank-4 boundary values change bytes in channels-last: a convolution block,
// a squeeze-and-excitation multiply (its [1, C, 1, 1] scale shares its bytes in both layouts),
// a pooled and flattened head (tuple results of ranks 4 and 2), and a partition with no rank-4
// value at all.
std::vector<Function> BoundaryFunctions() {
  return {
      ParseMainWithRandomConstants(R"(
def @main(%x: Tensor[(1, 3, 9, 11), f32], %y: Tensor[(1, 5, 9, 11), f32]) {
  %0 = constant(meta[0], Tensor[(5, 3, 3, 3), f32])
  %1 = nn.conv2d(%x, %0, padding=[1, 1, 1, 1])
  %2 = nn.relu(%1)
  add(%2, %y)
}
)",
                                   {{5, 3, 3, 3}}),
      ParseMainFunction(R"(
def @main(%x: Tensor[(2, 6, 5, 4), f32], %s: Tensor[(2, 6, 1, 1), f32]) {
  %0 = sigmoid(%s)
  multiply(%x, %0)
}
)"),
      ParseMainFunction(R"(
def @main(%x: Tensor[(1, 8, 6, 6), f32]) {
  %0 = nn.relu(%x)
  %1 = nn.global_avg_pool2d(%0)
  %2 = flatten(%1)
  (%0, %1, %2)
}
)"),
      ParseMainFunction(R"(
def @main(%x: Tensor[(4, 6), f32]) {
  tanh(%x)
}
)"),
  };
}

bool TakesChannelsLast(const Backend& backend) {
  const std::vector<Layout> layouts = backend.Support().boundary_layouts;
  return std::find(layouts.begin(), layouts.end(), Layout::kChannelsLast) != layouts.end();
}

TEST(BoundaryLayoutTest, EveryBackendMatchesTheReferenceInEveryLayoutItDeclares) {
  size_t checked = 0;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    for (Layout layout : backend->Support().boundary_layouts) {
      for (const Function& function : BoundaryFunctions()) {
        const Function placed = WithBoundaryLayout(function, layout);
        // A backend may refuse an op of these functions; the layout must not be the reason.
        try {
          backend->Compile(placed, CompileOptions{});
        } catch (const Error& error) {
          EXPECT_EQ(std::string(error.what()).find("boundary layout"), std::string::npos) << error.what();
          continue;
        }
        EXPECT_TRUE(MatchesReference(*backend, placed)) << backend->name() << " " << LayoutName(layout);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 8u);
}

// Negative control: a channels-last executable fed plain buffers (reinterpreted as channels-last
// shapes) does not match, so the comparison above does check the layout.
TEST(BoundaryLayoutTest, ChannelsLastExecutablesReadChannelsLastBuffers) {
  const Function function = WithBoundaryLayout(BoundaryFunctions()[1], Layout::kChannelsLast);
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (!TakesChannelsLast(*backend)) continue;
    const std::unique_ptr<Executable> executable = backend->Compile(function, CompileOptions{});
    const std::vector<Value> arguments = RandomArguments(function, 3);
    const std::vector<Shape> shapes = BoundaryParameterShapes(function);
    std::vector<Tensor> inputs;
    for (size_t i = 0; i < arguments.size(); ++i) inputs.push_back(arguments[i].tensor().Reshaped(shapes[i]));
    std::vector<Tensor> outputs = AllocateResults(function);
    executable->Run(inputs, outputs);
    const Value expected = Evaluate(function, arguments);
    const Value misread = outputs[0].Reshaped(expected.tensor().shape());
    EXPECT_FALSE(CompareValues(misread, expected).ok()) << backend->name();
  }
}

TEST(BoundaryLayoutTest, BackendsRefuseLayoutsTheyDoNotDeclare) {
  const Function function = WithBoundaryLayout(BoundaryFunctions()[1], Layout::kChannelsLast);
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (TakesChannelsLast(*backend) || backend->runs_every_op()) continue;
    try {
      backend->Compile(function, CompileOptions{});
      ADD_FAILURE() << backend->name() << " compiled a channels-last partition it does not declare";
    } catch (const Error& error) {
      EXPECT_NE(std::string(error.what()).find("boundary layout nhwc is not supported"), std::string::npos)
          << error.what();
    }
  }
}

TEST(BoundaryLayoutTest, PlainBodyTakesPhysicalBuffersAndGivesThemBack) {
  const Function function = WithBoundaryLayout(BoundaryFunctions()[2], Layout::kChannelsLast);
  EXPECT_EQ(BoundaryLayoutOf(function), Layout::kChannelsLast);
  EXPECT_EQ(BoundaryParameterShapes(function), (std::vector<Shape>{{1, 6, 6, 8}}));
  EXPECT_EQ(BoundaryResultShapes(function), (std::vector<Shape>{{1, 6, 6, 8}, {1, 1, 1, 8}, {1, 8}}));
  const Function plain_body = WithPlainBody(function);
  EXPECT_EQ(BoundaryLayoutOf(plain_body), Layout::kPlain);
  EXPECT_EQ(TypeToString(plain_body->params[0]->checked_type()), "Tensor[(1, 6, 6, 8), f32]");
  const Function plain = BoundaryFunctions()[2];
  EXPECT_EQ(WithPlainBody(plain), plain);  // a plain boundary needs no rewrite
  EXPECT_EQ(BoundaryLayoutOf(WithBoundaryLayout(function, Layout::kPlain)), Layout::kPlain);
}

TEST(BoundaryLayoutTest, UnknownLayoutIsAClearError) {
  const Function function = BoundaryFunctions()[3];
  Attrs attrs = function->attrs;
  attrs.Set(attr::kBoundaryLayout, std::string("nchw16c"));
  const Function odd = MakeFunction(function->params, function->body, attrs);
  try {
    BoundaryLayoutOf(odd);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown BoundaryLayout 'nchw16c'"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace collage
