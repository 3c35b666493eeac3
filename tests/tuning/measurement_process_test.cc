// The measurement worker process: replies, compile failures, hangs and crashes, restarts.
#include "tuning/measurement_process.h"

#include <gtest/gtest.h>

#include <chrono>

#include "build_paths.h"
#include "collage/collage_test_graphs.h"
#include "ir/type_inference.h"

namespace collage {
namespace {

const std::string kTestWorker = std::string(COLLAGE_BINARY_DIR) + "/bin/collage-test-measure-worker";

MeasurementRequest RequestFor(const std::string& backend) {
  MeasurementRequest request;
  request.backend = backend;
  request.function = collage_testing::MakeDiamond();
  InferType(request.function);
  request.options.min_runs = request.options.max_runs = 3;
  return request;
}

TEST(MeasurementProcessTest, AWellBehavedBackendIsTimed) {
  MeasurementProcess process(kTestWorker);
  const MeasurementReply reply = process.Measure(RequestFor("good"), 30);
  ASSERT_TRUE(reply.valid) << reply.reason;
  EXPECT_EQ(reply.measurement.runs, 3);
  EXPECT_GT(reply.measurement.median_seconds, 0);
  // The worker serves the next request too.
  EXPECT_TRUE(process.Measure(RequestFor("reference"), 30).valid);
  EXPECT_EQ(process.starts(), 1u);
}

TEST(MeasurementProcessTest, AFunctionWithALargeConstantIsMeasured) {
  MeasurementProcess process(kTestWorker);
  MeasurementRequest request = RequestFor("good");
  Var x = MakeVar("x", testing::F32({2, 300}));
  request.function = MakeFunction({x}, CallOp("add", {x, MakeConstant(Tensor::Random(DType::kF32, {2, 300}, 3))}));
  InferType(request.function);
  const MeasurementReply reply = process.Measure(request, 30);
  EXPECT_TRUE(reply.valid) << reply.reason;
}

TEST(MeasurementProcessTest, ACompileFailureIsInvalidWithTheBackendsReason) {
  MeasurementProcess process(kTestWorker);
  const MeasurementReply reply = process.Measure(RequestFor("failing"), 30);
  EXPECT_FALSE(reply.valid);
  EXPECT_NE(reply.reason.find("failing compiles nothing"), std::string::npos) << reply.reason;
  EXPECT_FALSE(reply.transient);
  EXPECT_TRUE(process.Measure(RequestFor("good"), 30).valid);
  EXPECT_EQ(process.starts(), 1u);
}

TEST(MeasurementProcessTest, AHangingCandidateTimesOutAndTheWorkerIsReplaced) {
  MeasurementProcess process(kTestWorker);
  const auto start = std::chrono::steady_clock::now();
  const MeasurementReply reply = process.Measure(RequestFor("hanging"), 1.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(reply.valid);
  EXPECT_EQ(reply.reason, "timed out after 1 s");
  EXPECT_TRUE(reply.transient);
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(process.Measure(RequestFor("good"), 30).valid);
  EXPECT_EQ(process.starts(), 2u);
}

TEST(MeasurementProcessTest, ACrashingCandidateIsInvalidAndTheWorkerIsReplaced) {
  MeasurementProcess process(kTestWorker);
  const MeasurementReply reply = process.Measure(RequestFor("crashing"), 30);
  EXPECT_FALSE(reply.valid);
  EXPECT_NE(reply.reason.find("died: killed by signal 6"), std::string::npos) << reply.reason;
  EXPECT_FALSE(reply.transient) << "a crash recurs";
  EXPECT_TRUE(process.Measure(RequestFor("good"), 30).valid);
  EXPECT_EQ(process.starts(), 2u);
}

TEST(MeasurementProcessTest, AWorkerKilledFromOutsideIsATransientFailure) {
  MeasurementProcess process(kTestWorker);
  const MeasurementReply reply = process.Measure(RequestFor("killed"), 30);
  EXPECT_FALSE(reply.valid);
  EXPECT_NE(reply.reason.find("died: killed by signal 9"), std::string::npos) << reply.reason;
  EXPECT_TRUE(reply.transient);
  EXPECT_TRUE(process.Measure(RequestFor("good"), 30).valid);
}

TEST(MeasurementProcessTest, AMissingWorkerExecutableIsReportedNotFatal) {
  MeasurementProcess process("/nonexistent/collage-measure-worker");
  const MeasurementReply reply = process.Measure(RequestFor("good"), 30);
  EXPECT_FALSE(reply.valid);
  EXPECT_NE(reply.reason.find("exited with status 127"), std::string::npos) << reply.reason;
}

}  // namespace
}  // namespace collage
