#include "tuning/hand_over_cost.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "ir/op_registry.h"
#include "testing/subset_backend.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

const std::string& ProbeOp(const Function& probe) {
  const auto* call = As<CallNode>(probe->body);
  EXPECT_NE(call, nullptr);
  return call->op()->name;
}

// A dense-only backend whose executables compute nothing (only their timing matters, and an
// interpreted product adds milliseconds of load-dependent noise) and sleep `hand_over` when
// another backend's run ended just before (well within the measurement's cool-down): a
// hand-over cost of known size that no partition timed alone shows.
class HandOverBackend final : public Backend {
 public:
  HandOverBackend(std::string name, std::chrono::microseconds hand_over)
      : name_(std::move(name)), hand_over_(hand_over) {}
  std::string name() const override { return name_; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  std::string version() const override { return "test"; }
  SupportDeclaration Support() const override { return inner_.Support(); }
  BackendPerformance Performance() const override { return {}; }
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override {
    ++compiled_;
    return std::make_unique<SleepingExecutable>(inner_.Compile(function, options), name_, hand_over_);
  }
  size_t compiled() const { return compiled_; }

 private:
  class SleepingExecutable final : public Executable {
   public:
    SleepingExecutable(std::unique_ptr<Executable> inner, std::string name, std::chrono::microseconds hand_over)
        : inner_(std::move(inner)), name_(std::move(name)), hand_over_(hand_over) {}
    void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
      static std::string last_backend;
      static std::chrono::steady_clock::time_point last_end;
      const bool just_after_another = !last_backend.empty() && last_backend != name_ &&
                                      std::chrono::steady_clock::now() - last_end < std::chrono::microseconds(90);
      if (just_after_another) std::this_thread::sleep_for(hand_over_);
      last_backend = name_;
      last_end = std::chrono::steady_clock::now();
    }

   private:
    std::unique_ptr<Executable> inner_;
    std::string name_;
    std::chrono::microseconds hand_over_;
  };

  std::string name_;
  std::chrono::microseconds hand_over_;
  testing::SubsetBackend inner_{"dense", {"nn.dense"}};
  mutable size_t compiled_ = 0;
};

TEST(HandOverCostTest, TheProbeIsADenseProductElseAConvolutionElseNone) {
  const CompileOptions options;
  const std::optional<Function> dense = HandOverProbe(testing::SubsetBackend("d", {"nn.dense", "nn.conv2d"}), options);
  ASSERT_TRUE(dense);
  EXPECT_EQ(ProbeOp(*dense), "nn.dense");
  const std::optional<Function> convolution =
      HandOverProbe(testing::SubsetBackend("c", {"nn.conv2d", "nn.relu"}), options);
  ASSERT_TRUE(convolution);
  EXPECT_EQ(ProbeOp(*convolution), "nn.relu");
  EXPECT_FALSE(HandOverProbe(testing::SubsetBackend("t", {"tanh"}), options));
  EXPECT_THROW(MeasureHandOver(testing::SubsetBackend("t", {"tanh"}), testing::SubsetBackend("d", {"nn.dense"}),
                               options, 2),
               Error);
}

// The measurement finds a hand-over it was built to see: 30 ms of sleep when the backend
// changes, far above what a loaded machine's time slices (a few ms) add to the probes'
// medians. The same measurement between two backends of one name (no change, so no sleep) is
// the negative control.
TEST(HandOverCostTest, MeasuresTheCostOfChangingBackendsAndOnlyThat) {
  const HandOverBackend first("first", std::chrono::milliseconds(30));
  const HandOverBackend second("second", std::chrono::milliseconds(30));
  const HandOverBackend second_again("second", std::chrono::milliseconds(30));
  const CompileOptions options;
  const HandOverMeasurement changing = MeasureHandOver(first, second, options, 7);
  EXPECT_GT(changing.producer_seconds, 0);
  EXPECT_GT(changing.consumer_seconds, 0);
  EXPECT_GE(changing.seconds(), 15e-3);
  EXPECT_EQ(changing.seconds(), changing.ConsumerAfterProducer() - changing.ConsumerAfterItself());
  const HandOverMeasurement staying = MeasureHandOver(second_again, second, options, 7);
  EXPECT_LT(staying.seconds(), 15e-3);
}

TEST(HandOverCostTest, CostsAreMeasuredOnceAndThenReadFromTheDatabase) {
  testing::TempDirectory directory;
  CostDatabase database = CostDatabase::Open(directory.PathOf("costs.sqlite"));
  const auto first = std::make_shared<HandOverBackend>("first", std::chrono::milliseconds(30));
  const auto second = std::make_shared<HandOverBackend>("second", std::chrono::milliseconds(30));
  BackendRegistry registry;
  registry.Register(first);
  registry.Register(second);
  registry.Register(std::make_shared<testing::SubsetBackend>("interpreter", std::set<std::string>{"nn.dense"},
                                                             std::vector<BackendPattern>{}, true,
                                                             BackendKind::kInterpreter));

  constexpr int kRounds = 5;
  MeasuredHandOverCosts measured(registry, &database, 1, kRounds);
  const double seconds = measured.Seconds("first", "second");
  EXPECT_GE(seconds, 15e-3);
  const size_t compiled = first->compiled() + second->compiled();
  EXPECT_GT(compiled, 0u);
  EXPECT_EQ(measured.Seconds("first", "second"), seconds);
  EXPECT_EQ(measured.Seconds("first", "first"), 0.0);
  EXPECT_EQ(measured.Seconds("interpreter", "first"), 0.0);

  MeasuredHandOverCosts reopened(registry, &database, 1, kRounds);
  EXPECT_EQ(reopened.Seconds("first", "second"), seconds);
  EXPECT_EQ(first->compiled() + second->compiled(), compiled);  // read back, not measured again
  MeasuredHandOverCosts other_threads(registry, &database, 2, kRounds);
  other_threads.Seconds("first", "second");
  EXPECT_GT(first->compiled() + second->compiled(), compiled);  // a thread count of its own
  EXPECT_THROW(measured.Seconds("first", "missing"), Error);
}

}  // namespace
}  // namespace collage
