// --precision auto's stage on a convolution layer oneDNN computes in int8: the decision's invariants (never over the tolerance on the calibration inputs,
// never slower than the fp32 plan as measured), the calibrated ranges in the plan, the round
// trip of the plan file and the run-time check against the plan's tolerance.
#include "pipeline/precision_placement.h"

#include <gtest/gtest.h>

#include <map>

#include "backend/backend.h"
#include "backend/precision.h"
#include "backend/zero_size_guard.h"
#include "collage/partition_spec.h"
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

// Analytic costs, with every int8 candidate a quarter of its f32 cost, so that the search
// chooses int8 whatever the machine's load; the accuracy loop and the final comparison still
// run and measure the real plans.
class Int8FavouringEstimator final : public CostEstimator {
 public:
  explicit Int8FavouringEstimator(std::map<std::string, BackendPerformance> performance)
      : analytic_(std::move(performance)) {}
  Cost Estimate(const DataflowGraph& graph, const CandidatePartition& candidate) override {
    const Cost cost = analytic_.Estimate(graph, candidate);
    return candidate.precision() == DType::kI8 ? Cost::Seconds(cost.seconds() / 4) : cost;
  }

 private:
  AnalyticCostEstimator analytic_;
};

class PrecisionPlacementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HasInt8Onednn()) GTEST_SKIP() << "no int8 oneDNN on this machine";
  }
  // The fp32 placement, then the precision stage over it with int8 favoured.
  ModelPlacement Place(const Module& model, double tolerance) const {
    PartitionRequest request;
    request.model_path = "layer";
    request.backends = {"onednn", "native"};
    request.threads = 2;
    request.show_progress = false;
    ModelPlacement placement = PlaceModel(model, request);
    request.precision.mode = PrecisionMode::kAuto;
    request.precision.tolerance = tolerance;
    std::vector<PartitionSpec> specs;
    std::map<std::string, BackendPerformance> performance;
    for (const std::string& name : request.backends) {
      const BackendPtr backend = BackendRegistry::Global().Get(name);
      specs.push_back(MakePartitionSpec(GuardedSupport(*backend)));
      performance.emplace(name, backend->Performance());
    }
    specs.push_back(MakeHostSpec());
    performance.emplace("host", BackendPerformance{});
    Int8FavouringEstimator estimator(performance);
    ChoosePrecisions(model, request, specs, estimator, PartitionOptions{}, placement);
    return placement;
  }
};

TEST_F(PrecisionPlacementTest, AutoKeepsAReducedPlanOnlyWithinTheToleranceAndFaster) {
  const Module model = ConvolutionLayer();
  const ModelPlacement placement = Place(model, 5e-2);
  ASSERT_TRUE(placement.precision.has_value());
  const PrecisionOutcome& outcome = *placement.precision;
  ASSERT_EQ(outcome.partitions.size(), 1u) << outcome.Summary();  // the int8 convolution
  EXPECT_EQ(outcome.calibration_sets, kDefaultCalibrationSets);
  EXPECT_GT(outcome.partitions[0].error_alone, 1e-5);  // it did compute in int8
  EXPECT_LE(outcome.partitions[0].error_alone, 5e-2);
  EXPECT_FALSE(outcome.partitions[0].moved_back);
  EXPECT_EQ(outcome.calibration_error, outcome.partitions[0].error_alone);
  EXPECT_GT(outcome.check_error, 1e-5);
  ASSERT_GT(outcome.reduced_ms, 0);
  if (outcome.decision == PrecisionOutcome::Decision::kNotFaster) {
    EXPECT_GE(outcome.reduced_ms, outcome.fp32_ms);
    EXPECT_EQ(PlanToText(placement.plan), PlanToText(outcome.fp32_plan));
    return;
  }
  ASSERT_EQ(outcome.decision, PrecisionOutcome::Decision::kReduced) << outcome.Summary();
  EXPECT_LT(outcome.reduced_ms, outcome.fp32_ms);
  ASSERT_TRUE(HasReducedPrecision(placement.plan));
  EXPECT_EQ(placement.plan.precision.mode, PrecisionMode::kAuto);
  EXPECT_EQ(placement.plan.precision.check_error, outcome.check_error);
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
  EXPECT_EQ(ReducedPartitionCount(reread), 1u);

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
}

// With --search graph the precision stage follows the graph stage: the fp32 plan its reduced
// plan must beat is the graph stage's final choice, and the placement keeps one of the two.
TEST_F(PrecisionPlacementTest, AfterTheGraphStageTheReducedPlanCompetesWithItsFinalPlan) {
  testing::TempDirectory directory;
  PartitionRequest request;
  request.model_path = "layer";
  request.backends = {"onednn", "native"};
  request.threads = 2;
  request.show_progress = false;
  request.cost_model = CostModel::kMeasured;
  request.database_path = directory.PathOf("costs.sqlite");
  request.search = SearchLevel::kGraph;
  request.graph_budget_seconds = 2;
  request.precision.mode = PrecisionMode::kAuto;
  request.precision.tolerance = 5e-2;
  const ModelPlacement placement = PlaceModel(ConvolutionLayer(), request);
  ASSERT_TRUE(placement.graph_stage.has_value());
  ASSERT_TRUE(placement.precision.has_value());
  const ModelPlacement::GraphStage& stage = *placement.graph_stage;
  const PrecisionOutcome& outcome = *placement.precision;
  EXPECT_EQ(PlanToText(outcome.fp32_plan) == PlanToText(stage.op_level_plan), !stage.replaced())
      << stage.FinalDecision();
  if (outcome.decision == PrecisionOutcome::Decision::kReduced) {
    EXPECT_TRUE(HasReducedPrecision(placement.plan));
    EXPECT_LT(outcome.reduced_ms, outcome.fp32_ms);
    EXPECT_LE(outcome.calibration_error, request.precision.tolerance);
  } else {
    EXPECT_EQ(PlanToText(placement.plan), PlanToText(outcome.fp32_plan)) << outcome.Summary();
  }
}

TEST_F(PrecisionPlacementTest, AToleranceOfNoErrorMovesEveryPartitionBackAndKeepsTheFp32Plan) {
  const ModelPlacement placement = Place(ConvolutionLayer(), 1e-12);
  ASSERT_TRUE(placement.precision.has_value());
  const PrecisionOutcome& outcome = *placement.precision;
  ASSERT_EQ(outcome.partitions.size(), 1u);
  EXPECT_EQ(outcome.decision, PrecisionOutcome::Decision::kAllF32Needed) << outcome.Summary();
  EXPECT_TRUE(outcome.partitions[0].moved_back);
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
  plan.partitions = {{"onednn_0", "onednn", PartitionLayouts{}, DType::kI8, 2, 0.5}};
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
  plan.partitions = {{"onednn_0", "onednn", PartitionLayouts{}, DType::kI8, 1, 0.5},
                     {"onednn_1", "onednn", PartitionLayouts{}, DType::kF32, 1, 0.5}};
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
