#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "onnx_node_test_dir.h"
#include "onnx_node_suite/isolated_call.h"
#include "onnx_node_suite/node_test_case.h"
#include "onnx_node_suite/suite_tally.h"
#include "support/error.h"
#include "testing/temp_directory.h"

namespace collage::node_suite {
namespace {

namespace fs = std::filesystem;

TEST(IsolatedCall, ReturnsTheOutputOfWorkThatFinishes) {
  const IsolatedResult result = RunIsolated([] { return std::string("done"); }, 10.0);
  EXPECT_EQ(result.status, IsolatedResult::Status::kFinished);
  EXPECT_EQ(result.output, "done");
}

TEST(IsolatedCall, ReportsACrashWithItsSignal) {
  const IsolatedResult result = RunIsolated(
      [] {
        // Die by the signal itself, also where a sanitizer has installed its own handler.
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return std::string("unreachable");
      },
      10.0);
  EXPECT_EQ(result.status, IsolatedResult::Status::kCrashed);
  EXPECT_NE(result.detail.find("SIGSEGV"), std::string::npos) << result.detail;
}

TEST(IsolatedCall, ReportsAnEscapingExceptionAsACrash) {
  const IsolatedResult result = RunIsolated([]() -> std::string { throw std::runtime_error("boom"); }, 10.0);
  EXPECT_EQ(result.status, IsolatedResult::Status::kCrashed);
  EXPECT_NE(result.detail.find("exited with status 3"), std::string::npos) << result.detail;
}

TEST(IsolatedCall, KillsWorkThatHangs) {
  const IsolatedResult result = RunIsolated(
      [] {
        for (;;) pause();
        return std::string();
      },
      0.3);
  EXPECT_EQ(result.status, IsolatedResult::Status::kTimedOut);
  EXPECT_NE(result.detail.find("0.3 s"), std::string::npos) << result.detail;
}

TEST(SuiteTally, GroupsRefusalsByOpTypeAndMessageShape) {
  EXPECT_EQ(RefusalGroup("/usr/share/x/test_resize/model.onnx: node 'n0' (Resize, domain 'ai.onnx', opset 13): "
                         "unsupported op"),
            "Resize: unsupported op");
  EXPECT_EQ(RefusalGroup("/a/b/model.onnx: node #3 (output 'y') (Reshape, domain 'ai.onnx', opset 14): input 2 "
                         "('shape') must be a constant"),
            "Reshape: input N ('*') must be a constant");
  EXPECT_EQ(RefusalGroup("/a/model.onnx: graph input 'seq' is not a tensor"), "graph input '*' is not a tensor");
}

TEST(SuiteTally, CountsClassesAndFailures) {
  SuiteTally tally;
  tally.Add("a", SuiteClass::kPass, "");
  tally.Add("b", SuiteClass::kRefused, "m.onnx: node 'x' (TopK, domain 'ai.onnx', opset 11): unsupported op");
  tally.Add("c", SuiteClass::kRefused, "m.onnx: node 'y' (TopK, domain 'ai.onnx', opset 11): unsupported op");
  tally.Add("d", SuiteClass::kHang, "no answer within 60 s");
  EXPECT_EQ(tally.Total(), 4u);
  EXPECT_EQ(tally.Count(SuiteClass::kRefused), 2u);
  EXPECT_EQ(tally.Failures(), 1u);
  std::ostringstream printed;
  tally.Print(printed);
  EXPECT_NE(printed.str().find("    2  b  TopK: unsupported op"), std::string::npos) << printed.str();
  EXPECT_NE(printed.str().find("hang d: no answer within 60 s"), std::string::npos) << printed.str();
  EXPECT_NE(printed.str().find("pass 1 refused 2 wrong 0 crash 0 hang 1"), std::string::npos) << printed.str();
}

TEST(NodeTestCase, OutcomesRoundTripThroughTheirEncoding) {
  const CaseOutcome outcome{CaseOutcome::Kind::kWrong, "output 0 ('y'): 1 elements differ"};
  const CaseOutcome decoded = DecodeOutcome(EncodeOutcome(outcome));
  EXPECT_EQ(decoded.kind, outcome.kind);
  EXPECT_EQ(decoded.reason, outcome.reason);
  EXPECT_THROW(DecodeOutcome("garbage"), Error);
}

// A copy of the suite's test_add, which the checks below alter.
class NodeTestCaseOnCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path source = fs::path(COLLAGE_ONNX_NODE_TEST_DIR) / "test_add";
    if (std::string(COLLAGE_ONNX_NODE_TEST_DIR).empty() || !fs::exists(source / "model.onnx")) {
      GTEST_SKIP() << "libonnx-testdata is not installed";
    }
    folder_ = directory_.PathOf("test_add");
    fs::copy(source, folder_, fs::copy_options::recursive);
    options_.backends = GreedyBackendsForSuite();
  }

  testing::TempDirectory directory_;
  std::string folder_;
  CaseOptions options_;
};

TEST_F(NodeTestCaseOnCopy, PassesUnaltered) {
  const CaseOutcome outcome = RunNodeTestCase(folder_, options_);
  EXPECT_EQ(outcome.kind, CaseOutcome::Kind::kPass) << outcome.reason;
}

// The negative control of the comparison: one expected element moved by 1 % is a wrong result.
TEST_F(NodeTestCaseOnCopy, IsWrongWhenAnExpectedOutputIsAltered) {
  const fs::path path = fs::path(folder_) / "test_data_set_0" / "output_0.pb";
  onnx::TensorProto proto;
  {
    std::ifstream file(path, std::ios::binary);
    ASSERT_TRUE(proto.ParseFromIstream(&file));
  }
  ASSERT_EQ(proto.data_type(), onnx::TensorProto::FLOAT);
  if (!proto.raw_data().empty()) {
    std::string raw = proto.raw_data();
    float first;
    std::memcpy(&first, raw.data(), sizeof(float));
    first = first * 1.01f + 0.01f;
    std::memcpy(raw.data(), &first, sizeof(float));
    proto.set_raw_data(raw);
  } else {
    proto.set_float_data(0, proto.float_data(0) * 1.01f + 0.01f);
  }
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(proto.SerializeToOstream(&file));
  }
  const CaseOutcome outcome = RunNodeTestCase(folder_, options_);
  EXPECT_EQ(outcome.kind, CaseOutcome::Kind::kWrong);
  EXPECT_NE(outcome.reason.find("reference interpreter: output 0"), std::string::npos) << outcome.reason;
}

TEST_F(NodeTestCaseOnCopy, IsRefusedWithTheReasonWhenTheModelIsUnreadable) {
  {
    std::ofstream file(fs::path(folder_) / "model.onnx", std::ios::binary | std::ios::trunc);
    file << "not a model";
  }
  const CaseOutcome outcome = RunNodeTestCase(folder_, options_);
  EXPECT_EQ(outcome.kind, CaseOutcome::Kind::kRefused);
  EXPECT_NE(outcome.reason.find("not a valid ONNX model"), std::string::npos) << outcome.reason;
}

}  // namespace
}  // namespace collage::node_suite
