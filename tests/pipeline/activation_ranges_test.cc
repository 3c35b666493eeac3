#include "pipeline/activation_ranges.h"

#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/precision.h"
#include "interpreter/calibration.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "parser/parser.h"
#include "runtime/accuracy_metric.h"
#include "runtime/invoke_executable.h"

namespace collage {
namespace {

// A ReLU on the host side and a convolution partition of the given precision attributes.
Function Model(const std::string& partition_attrs) {
  const std::string text = R"(def @main(%x: Tensor[(1, 16, 12, 12), f32]) {
  %r = nn.relu(%x)
  %f = fn (%p0: Tensor[(1, 16, 12, 12), f32]) attrs(Compiler="onednn", Primitive=1, )" +
                           partition_attrs + R"(global_symbol="onednn_0") {
    %w = constant(meta[0], Tensor[(24, 16, 3, 3), f32])
    nn.conv2d(%p0, %w, padding=[1, 1, 1, 1])
  }
  %f(%r)
}
)";
  return ParseModule(text, "model", {Tensor::Random(DType::kF32, {24, 16, 3, 3}, 3)}).main();
}

Function Partition(const Function& model) { return Downcast<FunctionNode>(As<CallNode>(model->body)->callee); }

TEST(ActivationRangesTest, ReducedPartitionsGetTheirArgumentsRangesInParameterOrder) {
  const Function model = Model("Precision=\"i8\", ");
  const auto inputs = RandomCalibrationInputs(model, 4);
  const Function attached = AttachActivationRanges(model, inputs);
  const std::vector<ActivationRange> ranges = ParameterRangesOf(Partition(attached));
  ASSERT_EQ(ranges.size(), 1u);
  float largest = 0;
  for (const auto& arguments : inputs) {
    const Tensor& x = arguments[0].tensor();
    for (int64_t i = 0; i < x.NumElements(); ++i) largest = std::max(largest, x.data<float>()[i]);
  }
  EXPECT_EQ(ranges[0], (ActivationRange{0, largest}));  // after the ReLU
  // An f32 partition is left as it is.
  const Function plain = Model("");
  EXPECT_EQ(AttachActivationRanges(plain, inputs)->body, plain->body);
}

// Calibration to int8 kernel: the partition compiled with the attached ranges runs on a fresh
// input within 1e-2 rel-l2 of the reference (the kernel's own bound is tested in OnednnInt8Test).
TEST(ActivationRangesTest, TheAttachedPartitionRunsInInt8OnOnednn) {
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) GTEST_SKIP() << "onednn is not built";
  const auto& precisions = backend->Support().reduced_precisions;
  if (std::find(precisions.begin(), precisions.end(), DType::kI8) == precisions.end()) GTEST_SKIP() << "no int8";
  const Function model = Model("Precision=\"i8\", ");
  const Function partition = Partition(AttachActivationRanges(model, RandomCalibrationInputs(model, 8)));
  const Tensor activation = Evaluate(MakeFunction(model->params, As<CallNode>(model->body)->args[0]),
                                     RandomArguments(model, 99))
                                .tensor();
  auto executable = backend->Compile(partition, {});
  const Tensor actual = InvokeExecutable(*executable, partition, {Value(activation)}).tensor();
  const Tensor expected = Evaluate(Partition(model), {Value(activation)}).tensor();
  const double error = MeasureError(AccuracyMetric::kRelativeL2, {actual}, {expected});
  EXPECT_LT(error, 1e-2);
  EXPECT_GT(error, 1e-5);  // it did compute in int8
}

TEST(ActivationRangesTest, AnArgumentWithoutAnF32RangeIsNamed) {
  const std::string text = R"(def @main(%x: Tensor[(4), i32]) {
  %f = fn (%p0: Tensor[(4), i32]) attrs(Compiler="onednn", Primitive=1, Precision="i8", global_symbol="onednn_3") {
    add(%p0, %p0)
  }
  %f(%x)
}
)";
  const Function model = ParseModule(text, "model").main();
  try {
    AttachActivationRanges(model, RandomCalibrationInputs(model, 1));
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "onednn_3: argument 0 of a i8 partition has no f32 calibration range");
  }
}

}  // namespace
}  // namespace collage
