// --precision auto through the placement pipeline on a convolution layer oneDNN runs faster in
// int8 here: the decision's invariants (never over the tolerance on the calibration inputs,
// never slower than the fp32 plan as measured), the calibrated ranges in the plan, the round
// trip of the plan file and the run-time check against the plan's tolerance.
#include "pipeline/precision_placement.h"

#include <gtest/gtest.h>

#include "backend/backend.h"
#include "backend/precision.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "parser/parser.h"
#include "pipeline/greedy_run.h"
#include "pipeline/model_partitioner.h"
#include "pipeline/partition_report_writer.h"
#include "pipeline/reduced_precision_check.h"
#include "testing/temp_directory.h"

namespace collage {
namespace {

Module ConvolutionLayer() {
  const std::string text = R"(def @main(%x: Tensor[(1, 64, 28, 28), f32]) {
  %w = constant(meta[0], Tensor[(64, 64, 3, 3), f32])
  nn.relu(nn.conv2d(nn.relu(%x), %w, padding=[1, 1, 1, 1]))
}
)";
  return ParseModule(text, "layer", {Tensor::Random(DType::kF32, {64, 64, 3, 3}, 5)});
}

bool HasInt8Onednn() {
  const BackendPtr backend = BackendRegistry::Global().Find("onednn");
  if (!backend) return false;
  const auto& precisions = backend->Support().reduced_precisions;
  return std::find(precisions.begin(), precisions.end(), DType::kI8) != precisions.end();
}

class PrecisionPlacementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HasInt8Onednn()) GTEST_SKIP() << "no int8 oneDNN on this machine";
  }
  PartitionRequest Request(double tolerance) const {
    PartitionRequest request;
    request.model_path = "layer";
    request.backends = {"onednn", "native"};
    request.cost_model = CostModel::kMeasured;
    request.database_path = directory_.PathOf("costs.sqlite");
    request.threads = 2;
    request.show_progress = false;
    request.precision.mode = PrecisionMode::kAuto;
    request.precision.tolerance = tolerance;
    return request;
  }
  testing::TempDirectory directory_;
};

TEST_F(PrecisionPlacementTest, AutoKeepsAReducedPlanOnlyWithinTheToleranceAndFaster) {
  const Module model = ConvolutionLayer();
  const ModelPlacement placement = PlaceModel(model, Request(5e-2));
  ASSERT_TRUE(placement.precision.has_value());
  const PrecisionOutcome& outcome = *placement.precision;
  ASSERT_FALSE(outcome.partitions.empty()) << placement.Listing();  // the search offered and chose int8
  EXPECT_EQ(outcome.calibration_sets, kDefaultCalibrationSets);
  if (outcome.decision == PrecisionOutcome::Decision::kReduced) {
    EXPECT_LE(outcome.calibration_error, 5e-2);
    EXPECT_GT(outcome.calibration_error, 0);  // it did compute in int8
    EXPECT_LT(outcome.reduced_ms, outcome.fp32_ms);
    ASSERT_TRUE(HasReducedPrecision(placement.plan));
    EXPECT_EQ(placement.plan.precision.mode, PrecisionMode::kAuto);
    // The plan's int8 partition holds the calibrated range of its argument, relu(x) >= 0.
    bool found = false;
    for (const Expr& expr : PostOrder(placement.plan.module.main()->body)) {
      const auto* call = As<CallNode>(expr);
      const Function callee = call ? Downcast<FunctionNode>(call->callee) : nullptr;
      if (!callee || PrecisionOf(callee->attrs) != DType::kI8) continue;
      found = true;
      const std::vector<ActivationRange> ranges = ParameterRangesOf(callee);
      ASSERT_EQ(ranges.size(), 1u);
      EXPECT_EQ(ranges[0].min, 0);
      EXPECT_GT(ranges[0].max, 0.9);  // random inputs in [-1, 1)
    }
    EXPECT_TRUE(found);
    const Plan reread = ParsePlan(PlanToText(placement.plan), "layer.plan");
    EXPECT_EQ(PlanToText(reread), PlanToText(placement.plan));
    EXPECT_EQ(ReducedPartitionCount(reread), ReducedPartitionCount(placement.plan));

    // The plan runs within its tolerance on fresh inputs, and a tighter tolerance fails.
    const std::vector<Value> inputs = RandomArguments(model.main(), 77);
    const GreedyRun run = RunGreedily(reread.module.main(), inputs, reread.backends, 2, std::nullopt, false);
    const Value reference = Evaluate(model.main(), inputs);
    const ReducedPrecisionCheck check = CheckReducedPrecision(run.result, reference, reread.precision);
    EXPECT_TRUE(check.within_tolerance) << check.message;
    EXPECT_GT(check.error, 1e-5);
    PlanPrecision strict = reread.precision;
    strict.tolerance = check.error / 2;
    EXPECT_FALSE(CheckReducedPrecision(run.result, reference, strict).within_tolerance);
  } else {
    EXPECT_EQ(PlanToText(placement.plan), PlanToText(outcome.fp32_plan)) << outcome.Summary();
  }
}

TEST_F(PrecisionPlacementTest, AToleranceOfNoErrorMovesEveryPartitionBackAndKeepsTheFp32Plan) {
  const ModelPlacement placement = PlaceModel(ConvolutionLayer(), Request(1e-12));
  ASSERT_TRUE(placement.precision.has_value());
  const PrecisionOutcome& outcome = *placement.precision;
  ASSERT_FALSE(outcome.partitions.empty());
  EXPECT_EQ(outcome.decision, PrecisionOutcome::Decision::kAllF32Needed) << outcome.Summary();
  for (const PrecisionOutcome::Partition& partition : outcome.partitions) EXPECT_TRUE(partition.moved_back);
  EXPECT_FALSE(HasReducedPrecision(placement.plan));
  EXPECT_EQ(PlanToText(placement.plan), PlanToText(outcome.fp32_plan));
  EXPECT_NE(outcome.Summary().find("even the all-f32 plan is needed"), std::string::npos) << outcome.Summary();
}

TEST(PrecisionPlanTest, PrecisionsRoundTripAndAMalformedLineIsNamed) {
  Plan plan;
  plan.model_path = "m.cir";
  plan.model_hash = "0123456789abcdef";
  plan.backends = {"onednn"};
  plan.precision = {PrecisionMode::kAuto, 0.02, AccuracyMetric::kTop1, 0.0125, 0.015};
  plan.partitions = {{"onednn_0", "onednn", Layout::kPlain, DType::kI8, 2, 0.5}};
  plan.module = ParseModule("def @main(%x: Tensor[(2), f32]) { %x }", "m");
  const std::string text = PlanToText(plan);
  EXPECT_NE(text.find("// precision: auto tolerance=0.02 metric=top1 calibration_error=0.0125 check_error=0.015\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("layout=plain precision=i8 ops=2"), std::string::npos) << text;
  const Plan reread = ParsePlan(text, "m.plan");
  EXPECT_EQ(reread.precision.metric, AccuracyMetric::kTop1);
  EXPECT_EQ(reread.precision.tolerance, 0.02);
  EXPECT_EQ(reread.partitions[0].precision, DType::kI8);
  EXPECT_EQ(PlanToText(reread), text);
  std::string edited = text;
  edited.replace(edited.find("metric=top1"), 11, "metric=top5");
  try {
    ParsePlan(edited, "m.plan");
    ADD_FAILURE() << "an unknown metric was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "m.plan:5: plan header: unknown metric 'top5' (expected rel-l2, max-rel or top1)");
  }
}

TEST(PrecisionPlanTest, TheReportTakesEachPartitionsPrecisionAndTheAccuracyFromThePlan) {
  Plan plan;
  plan.precision = {PrecisionMode::kAuto, 0.01, AccuracyMetric::kRelativeL2, 0.004, 0.005};
  plan.partitions = {{"onednn_0", "onednn", Layout::kPlain, DType::kI8, 1, 0.5},
                     {"onednn_1", "onednn", Layout::kPlain, DType::kF32, 1, 0.5}};
  PlacementReport report;
  report.partitions.resize(2);
  report.partitions[0].symbol = "onednn_1";
  report.partitions[0].precision = "i8";  // the search chose i8, the accuracy loop moved it back
  report.partitions[1].symbol = "onednn_0";
  SetReportPrecisions(report, plan);
  EXPECT_EQ(report.partitions[0].precision, "f32");
  EXPECT_EQ(report.partitions[1].precision, "i8");
  EXPECT_EQ(report.precision,
            "auto: rel-l2 0.004 on the calibration inputs, 0.005 on disjoint inputs, tolerance 0.01; 1 reduced partitions");
}

}  // namespace
}  // namespace collage
