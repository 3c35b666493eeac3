// The onednn backend's int8 partitions against the reference interpreter, within the error the
// quantization scales allow: an activation within its range is off by at most half its scale
// s_x per element, a weight by at most delta_w per element (half its channel's scale s_w with
// VNNI; without it oneDNN halves s8 weights to keep 16-bit pair sums from saturating, a second
// rounding: up to 1.5 s_w). Propagated through a product:
//   |y - y_ref| <= s_x/2 * sum_k |w_k| + delta_w * sum_k (|x_k| + s_x/2)
// per output element (ReLU does not widen it), plus float accumulation rounding. The negative
// control declares a range half the true one: clipped activations break the bound.
#include <gtest/gtest.h>

#include <cmath>

#include "backend/backend.h"
#include "backend/library_test_util.h"
#include "backend/onednn/kernel_probe.h"
#include "backend/onednn/quantized_operands.h"
#include "backend/precision.h"
#include "interpreter/interpreter.h"
#include "parser/parser.h"
#include "runtime/invoke_executable.h"
#include "support/cpu_features.h"

namespace collage {
namespace {

constexpr int64_t kInputChannels = 16;
constexpr int64_t kOutputChannels = 24;
const Shape kImage = {1, kInputChannels, 12, 12};
const Shape kKernel = {kOutputChannels, kInputChannels, 3, 3};

std::string ConvolutionText(const std::string& epilogue) {
  return R"(def @main(%x: Tensor[(1, 16, 12, 12), f32]) {
  %w = constant(meta[0], Tensor[(24, 16, 3, 3), f32])
  %b = constant(meta[1], Tensor[(24), f32])
  %c = nn.conv2d(%x, %w, padding=[1, 1, 1, 1])
  )" + epilogue + "\n}\n";
}

const char* kDenseText = R"(def @main(%x: Tensor[(6, 64), f32]) {
  %w = constant(meta[0], Tensor[(40, 64), f32])
  %b = constant(meta[1], Tensor[(40), f32])
  %d = nn.dense(%x, %w)
  nn.bias_add(%d, %b, axis=1)
}
)";

Tensor Map(const Tensor& tensor, float (*function)(float)) {
  Tensor result = Tensor::Zeros(DType::kF32, tensor.shape());
  for (int64_t i = 0; i < tensor.NumElements(); ++i) result.data<float>()[i] = function(tensor.data<float>()[i]);
  return result;
}

float Absolute(float value) { return std::fabs(value); }

class OnednnInt8Test : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = BackendRegistry::Global().Find("onednn");
    if (!backend_) GTEST_SKIP() << "onednn is not built (libdnnl-dev missing)";
    const std::vector<DType>& precisions = backend_->Support().reduced_precisions;
    if (std::find(precisions.begin(), precisions.end(), DType::kI8) == precisions.end()) {
      GTEST_SKIP() << "oneDNN has only reference int8 kernels on this machine";
    }
  }

  // The weight error per element for channel scale `scale`.
  static float WeightError(float scale) { return DetectReducedPrecisionIsa().vnni ? scale / 2 : 1.5f * scale; }

  // Runs `function` in int8 with `declared` as its input's range on `input`; returns the largest
  // error relative to the bound and checks the result is not simply the f32 one.
  double WorstErrorOverBound(const Function& function, const Tensor& input, const ActivationRange& declared,
                             const std::function<Tensor(float activation_scale)>& bound_of) {
    const Function quantized = WithPrecision(function, DType::kI8, {declared});
    auto executable = backend_->Compile(quantized, {});
    const Tensor actual = InvokeExecutable(*executable, quantized, {Value(input)}).tensor();
    const Tensor expected = Evaluate(function, {Value(input)}).tensor();
    const Tensor bound = bound_of(ActivationQuantization(declared).scale);
    double worst = 0;
    double largest_difference = 0;
    double magnitude = 0;
    for (int64_t i = 0; i < expected.NumElements(); ++i) {
      const double difference = std::fabs(actual.data<float>()[i] - expected.data<float>()[i]);
      magnitude = std::max(magnitude, std::fabs(static_cast<double>(expected.data<float>()[i])));
      largest_difference = std::max(largest_difference, difference);
      worst = std::max(worst, difference / (bound.data<float>()[i] + 1e-5 * magnitude));
    }
    // Quantization changed the result: an f32 computation would be off by rounding only.
    EXPECT_GT(largest_difference, 1e-4 * magnitude);
    return worst;
  }

  // s_x/2 * conv(1, |W|) + delta_w[o] * conv(|x| + s_x/2, 1), with the convolution's padding.
  Tensor ConvolutionBound(const Tensor& input, const Tensor& weights, float activation_scale) const {
    const std::string text = R"(def @main(%a: Tensor[(1, 16, 12, 12), f32]) {
  %w = constant(meta[0], Tensor[(24, 16, 3, 3), f32])
  nn.conv2d(%a, %w, padding=[1, 1, 1, 1])
}
)";
    Tensor half_steps = Tensor::Zeros(DType::kF32, kImage);
    Tensor shifted = Map(input, Absolute);
    for (int64_t i = 0; i < half_steps.NumElements(); ++i) {
      half_steps.data<float>()[i] = activation_scale / 2;
      shifted.data<float>()[i] += activation_scale / 2;
    }
    Tensor ones = Tensor::Zeros(DType::kF32, kKernel);
    for (int64_t i = 0; i < ones.NumElements(); ++i) ones.data<float>()[i] = 1;
    const Tensor from_activation =
        Evaluate(ParseModule(text, "bound", {Map(weights, Absolute)}).main(), {Value(half_steps)}).tensor();
    const Tensor from_weights = Evaluate(ParseModule(text, "bound", {ones}).main(), {Value(shifted)}).tensor();
    const std::vector<float> scales = PerChannelWeightScales(weights, onednn::WeightIntegerMax());
    Tensor bound = Tensor::Zeros(DType::kF32, from_activation.shape());
    const int64_t per_channel = bound.NumElements() / kOutputChannels;
    for (int64_t i = 0; i < bound.NumElements(); ++i) {
      bound.data<float>()[i] = from_activation.data<float>()[i] +
                               WeightError(scales[static_cast<size_t>(i / per_channel)]) * from_weights.data<float>()[i];
    }
    return bound;
  }

  BackendPtr backend_;
};

TEST_F(OnednnInt8Test, ConvolutionWithBiasAndReluOnUnsignedAndSignedActivations) {
  const Tensor weights = Tensor::Random(DType::kF32, kKernel, 3);
  const Tensor bias = Tensor::Random(DType::kF32, {kOutputChannels}, 4);
  for (const std::string& epilogue : {std::string("nn.relu(nn.bias_add(%c, %b))"), std::string("%c")}) {
    const Function function = ParseModule(ConvolutionText(epilogue), "conv", {weights, bias}).main();
    for (const auto& [low, high] : {std::pair{0.0, 1.0}, std::pair{-1.0, 1.0}}) {
      const Tensor input = Tensor::Random(DType::kF32, kImage, 5, low, high);
      const auto bound = [&](float scale) { return ConvolutionBound(input, weights, scale); };
      const ActivationRange range{static_cast<float>(low), static_cast<float>(high)};
      EXPECT_LE(WorstErrorOverBound(function, input, range, bound), 1.0) << epilogue << " inputs in [" << low << ", " << high << ")";
      const ActivationRange clipped{range.min / 2, range.max / 2};
      EXPECT_GT(WorstErrorOverBound(function, input, clipped, bound), 1.0) << "negative control: " << epilogue;
    }
  }
}

TEST_F(OnednnInt8Test, DenseWithBias) {
  const Tensor weights = Tensor::Random(DType::kF32, {40, 64}, 6);
  const Tensor bias = Tensor::Random(DType::kF32, {40}, 7);
  const Function function = ParseModule(kDenseText, "dense", {weights, bias}).main();
  const Tensor input = Tensor::Random(DType::kF32, {6, 64}, 8);
  const std::vector<float> scales = PerChannelWeightScales(weights, onednn::WeightIntegerMax());
  const auto bound = [&](float activation_scale) {
    Tensor result = Tensor::Zeros(DType::kF32, {6, 40});
    for (int64_t row = 0; row < 6; ++row) {
      for (int64_t column = 0; column < 40; ++column) {
        double sum = 0;
        for (int64_t k = 0; k < 64; ++k) {
          sum += activation_scale / 2 * std::fabs(weights.data<float>()[column * 64 + k]) +
                 WeightError(scales[static_cast<size_t>(column)]) *
                     (std::fabs(input.data<float>()[row * 64 + k]) + activation_scale / 2);
        }
        result.data<float>()[row * 40 + column] = static_cast<float>(sum);
      }
    }
    return result;
  };
  EXPECT_LE(WorstErrorOverBound(function, input, {-1, 1}, bound), 1.0);
  EXPECT_GT(WorstErrorOverBound(function, input, {-0.5f, 0.5f}, bound), 1.0) << "negative control";
}

TEST_F(OnednnInt8Test, ARangeIsNeededPerParameter) {
  const Function function =
      ParseModule(kDenseText, "dense", {Tensor::Random(DType::kF32, {40, 64}, 6), Tensor::Random(DType::kF32, {40}, 7)})
          .main();
  Attrs attrs = function->attrs;
  attrs.Set(attr::kPrecision, std::string("i8"));
  const std::string error = testing::CompileError(*backend_, MakeFunction(function->params, function->body, attrs));
  EXPECT_NE(error.find("a i8 partition without ActivationRanges"), std::string::npos) << error;
}

// The declaration follows what oneDNN runs here: int8 where it has a non-reference kernel; bf16
// (not lowered yet) has none without AVX-512 (it is unimplemented on this AVX2 machine).
TEST(OnednnPrecisionDeclarationTest, FollowsTheDetectedIsa) {
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) GTEST_SKIP() << "onednn is not built";
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  const std::vector<DType>& precisions = backend->Support().reduced_precisions;
  const bool declares_int8 = std::find(precisions.begin(), precisions.end(), DType::kI8) != precisions.end();
  EXPECT_EQ(declares_int8, onednn::ReducedPrecisionIsOptimized(dnnl::memory::data_type::s8, engine));
  EXPECT_EQ(std::find(precisions.begin(), precisions.end(), DType::kBF16), precisions.end());
  if (!DetectReducedPrecisionIsa().avx512) {
    EXPECT_FALSE(onednn::ReducedPrecisionIsOptimized(dnnl::memory::data_type::bf16, engine));
  }
  if (DetectReducedPrecisionIsa().avx2) {
    EXPECT_TRUE(declares_int8);
  }
}

}  // namespace
}  // namespace collage
