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
#include "support/layout_conversion.h"

namespace collage {
namespace {

using testing::MatchesReference;
using testing::ParseMainFunction;

// Partitions whose rank-4 boundary values change bytes in channels-last: a convolution block,
// a squeeze-and-excitation multiply (its [1, C, 1, 1] scale shares its bytes in both layouts),
// a pooled and flattened head (tuple results of ranks 4 and 2), and a partition with no rank-4
// value at all.
std::vector<Function> BoundaryFunctions() {
  return {
      testing::ConvolutionReluAdd(),
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

// The boundaries a backend declares: each layout on both sides, then its mixed pairs.
std::vector<PartitionLayouts> DeclaredBoundaries(const Backend& backend) {
  const SupportDeclaration declaration = backend.Support();
  std::vector<PartitionLayouts> boundaries;
  for (Layout layout : declaration.boundary_layouts) boundaries.push_back(PartitionLayouts::Uniform(layout));
  boundaries.insert(boundaries.end(), declaration.mixed_boundary_layouts.begin(),
                    declaration.mixed_boundary_layouts.end());
  return boundaries;
}

bool Takes(const Backend& backend, const PartitionLayouts& layouts) {
  const std::vector<PartitionLayouts> boundaries = DeclaredBoundaries(backend);
  return std::find(boundaries.begin(), boundaries.end(), layouts) != boundaries.end();
}

TEST(BoundaryLayoutTest, EveryBackendMatchesTheReferenceInEveryLayoutItDeclares) {
  size_t checked = 0;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    for (const PartitionLayouts& layouts : DeclaredBoundaries(*backend)) {
      for (const Function& function : BoundaryFunctions()) {
        const Function placed = WithBoundaryLayouts(function, layouts);
        // A backend may refuse an op of these functions; the layout must not be the reason.
        try {
          backend->Compile(placed, CompileOptions{});
        } catch (const Error& error) {
          EXPECT_EQ(std::string(error.what()).find("boundary layout"), std::string::npos) << error.what();
          continue;
        }
        EXPECT_TRUE(MatchesReference(*backend, placed)) << backend->name() << " " << PartitionLayoutsName(layouts);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 8u);
}

// Negative control: a channels-last executable fed plain buffers (reinterpreted as channels-last
// shapes) does not match, so the comparison above does check the layout.
TEST(BoundaryLayoutTest, ChannelsLastExecutablesReadChannelsLastBuffers) {
  const PartitionLayouts channels_last = PartitionLayouts::Uniform(Layout::kChannelsLast);
  const Function function = WithBoundaryLayouts(BoundaryFunctions()[1], channels_last);
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (!Takes(*backend, channels_last)) continue;
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

// Negative control on the result side: every executable writes its rank-4 results in its
// boundary's result layout. Read as plain buffers, they do not match (a one-pixel result would).
TEST(BoundaryLayoutTest, ExecutablesWriteResultsInTheirBoundaryLayout) {
  size_t checked = 0;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    for (const PartitionLayouts& layouts : DeclaredBoundaries(*backend)) {
      if (layouts.results == Layout::kPlain) continue;
      const Function function = WithBoundaryLayouts(BoundaryFunctions()[1], layouts);
      const std::unique_ptr<Executable> executable = backend->Compile(function, CompileOptions{});
      const std::vector<Value> arguments = RandomArguments(function, 3);
      std::vector<Tensor> inputs;
      for (const Value& argument : arguments) {
        inputs.push_back(
            ConvertedLayout(argument.tensor(), Layout::kPlain, layouts.parameters, argument.tensor().shape()));
      }
      std::vector<Tensor> outputs = AllocateResults(function);
      executable->Run(inputs, outputs);
      const Value expected = Evaluate(function, arguments);
      const Shape& logical = expected.tensor().shape();
      const Value converted = ConvertedLayout(outputs[0], layouts.results, Layout::kPlain, logical);
      const std::string name = backend->name() + " " + PartitionLayoutsName(layouts);
      EXPECT_TRUE(CompareValues(converted, expected).ok()) << name;
      const Value misread = Tensor::Borrow(DType::kF32, logical, outputs[0].raw_data());
      EXPECT_FALSE(CompareValues(misread, expected).ok()) << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u);  // xnnpack, onednn and native take channels-last at least
}

TEST(BoundaryLayoutTest, BackendsRefuseLayoutsTheyDoNotDeclare) {
  size_t refused = 0;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (backend->runs_every_op()) continue;
    for (Layout parameters : AllLayouts()) {
      for (Layout results : AllLayouts()) {
        const PartitionLayouts layouts{parameters, results};
        if (Takes(*backend, layouts)) continue;
        const Function function = WithBoundaryLayouts(BoundaryFunctions()[1], layouts);
        const std::string expected = "boundary layout " + PartitionLayoutsName(layouts) + " is not supported";
        try {
          backend->Compile(function, CompileOptions{});
          ADD_FAILURE() << backend->name() << " compiled a " << PartitionLayoutsName(layouts)
                        << " partition it does not declare";
        } catch (const Error& error) {
          EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
          ++refused;
        }
      }
    }
  }
  EXPECT_GT(refused, 0u);
}

TEST(BoundaryLayoutTest, PlainBodyTakesPhysicalBuffersAndGivesThemBack) {
  const Function function =
      WithBoundaryLayouts(BoundaryFunctions()[2], PartitionLayouts::Uniform(Layout::kChannelsLast));
  EXPECT_EQ(BoundaryLayoutsOf(function), PartitionLayouts::Uniform(Layout::kChannelsLast));
  EXPECT_EQ(BoundaryParameterShapes(function), (std::vector<Shape>{{1, 6, 6, 8}}));
  EXPECT_EQ(BoundaryResultShapes(function), (std::vector<Shape>{{1, 6, 6, 8}, {1, 1, 1, 8}, {1, 8}}));
  const Function plain_body = WithPlainBody(function);
  EXPECT_TRUE(BoundaryLayoutsOf(plain_body).IsPlain());
  EXPECT_EQ(TypeToString(plain_body->params[0]->checked_type()), "Tensor[(1, 6, 6, 8), f32]");
  const Function plain = BoundaryFunctions()[2];
  EXPECT_EQ(WithPlainBody(plain), plain);  // a plain boundary needs no rewrite
  EXPECT_TRUE(BoundaryLayoutsOf(WithBoundaryLayouts(function, PartitionLayouts{})).IsPlain());
  // Mixed: plain parameters, channels-last results.
  const Function mixed = WithBoundaryLayouts(plain, {Layout::kPlain, Layout::kChannelsLast});
  EXPECT_EQ(BoundaryParameterShapes(mixed), (std::vector<Shape>{{1, 8, 6, 6}}));
  EXPECT_EQ(BoundaryResultShapes(mixed), (std::vector<Shape>{{1, 6, 6, 8}, {1, 1, 1, 8}, {1, 8}}));
  EXPECT_EQ(TypeToString(WithPlainBody(mixed)->params[0]->checked_type()), "Tensor[(1, 8, 6, 6), f32]");
}

TEST(BoundaryLayoutTest, BoundaryNamesRoundTrip) {
  for (Layout parameters : AllLayouts()) {
    for (Layout results : AllLayouts()) {
      const PartitionLayouts layouts{parameters, results};
      EXPECT_EQ(ParsePartitionLayouts(PartitionLayoutsName(layouts)), layouts) << PartitionLayoutsName(layouts);
    }
  }
  EXPECT_EQ(PartitionLayoutsName({Layout::kPlain, Layout::kChannelBlocked8}), "plain>nchw8c");
  EXPECT_EQ(PartitionLayoutsName(PartitionLayouts::Uniform(Layout::kChannelsLast)), "nhwc");
  EXPECT_EQ(WithLayoutsSuffix("onednn", {Layout::kChannelBlocked8, Layout::kPlain}), "onednn [nchw8c>plain]");
  EXPECT_EQ(WithLayoutsSuffix("onednn", PartitionLayouts{}), "onednn");
  EXPECT_EQ(ParsePartitionLayouts("plain>"), std::nullopt);
  EXPECT_EQ(ParsePartitionLayouts(">nhwc"), std::nullopt);
  EXPECT_EQ(ParsePartitionLayouts("nhwc>nchw4c"), std::nullopt);
}

TEST(BoundaryLayoutTest, UnknownLayoutIsAClearError) {
  const Function function = BoundaryFunctions()[3];
  Attrs attrs = function->attrs;
  attrs.Set(attr::kBoundaryLayout, std::string("nchw4c"));
  const Function odd = MakeFunction(function->params, function->body, attrs);
  try {
    BoundaryLayoutsOf(odd);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("unknown BoundaryLayout 'nchw4c'"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace collage
