// The tuner <-> worker messages survive a round trip over a socket pair.
#include "tuning/measurement_protocol.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ir/printer.h"
#include "ir/type_inference.h"
#include "testing/graph_builders.h"

namespace collage {
namespace {

class SocketPair {
 public:
  SocketPair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sockets_), 0); }
  ~SocketPair() {
    close(sockets_[0]);
    close(sockets_[1]);
  }
  int writer() const { return sockets_[0]; }
  int reader() const { return sockets_[1]; }

 private:
  int sockets_[2] = {-1, -1};
};

TEST(MeasurementProtocolTest, RequestRoundTripKeepsTheFunctionAndEveryOption) {
  MeasurementRequest request;
  request.backend = "reference";
  request.function = testing::MakeConvBiasRelu();
  InferType(request.function);  // a partition function arrives type-checked
  request.threads = 3;
  request.seed = 42;
  request.options.warmup_runs = 4;
  request.options.min_runs = 6;
  request.options.max_runs = 60;
  request.options.budget_seconds = 0.125;
  request.options.target_relative_error = 0.015;
  request.options.dominated_above_seconds = 0.04;
  request.options.percentile = 0.75;
  request.options.cool_down_bytes = 3 << 20;
  request.options.cool_down_seconds = 0.0002;

  SocketPair sockets;
  WriteRequest(sockets.writer(), request);
  const std::optional<MeasurementRequest> received = ReadRequest(sockets.reader());
  ASSERT_TRUE(received.has_value());
  EXPECT_EQ(received->backend, "reference");
  EXPECT_EQ(received->threads, 3);
  EXPECT_EQ(received->seed, 42u);
  const MeasurementOptions& options = received->options;
  EXPECT_EQ(options.warmup_runs, 4);
  EXPECT_EQ(options.min_runs, 6);
  EXPECT_EQ(options.max_runs, 60);
  EXPECT_DOUBLE_EQ(options.budget_seconds, 0.125);
  EXPECT_DOUBLE_EQ(options.target_relative_error, 0.015);
  EXPECT_DOUBLE_EQ(options.dominated_above_seconds, 0.04);
  EXPECT_DOUBLE_EQ(options.percentile, 0.75);
  EXPECT_EQ(options.cool_down_bytes, size_t{3} << 20);
  EXPECT_DOUBLE_EQ(options.cool_down_seconds, 0.0002);
  EXPECT_EQ(PrintFunction(received->function, "main"), PrintFunction(request.function, "main"));
}

TEST(MeasurementProtocolTest, ReplyRoundTrip) {
  SocketPair sockets;
  MeasurementReply reply;
  reply.valid = true;
  reply.measurement = Measurement{2e-3, 1.5e-3, 1e-3, 3e-3, 17};
  WriteReply(sockets.writer(), reply);
  const MeasurementReply received = ReadReply(sockets.reader());
  EXPECT_TRUE(received.valid);
  EXPECT_DOUBLE_EQ(received.measurement.seconds, 2e-3);
  EXPECT_DOUBLE_EQ(received.measurement.p90_seconds, 3e-3);
  EXPECT_EQ(received.measurement.runs, 17);
  EXPECT_FALSE(received.measurement.dominated);

  reply.measurement = Measurement{0.5, 0.5, 0.5, 0.5, 1, true};
  WriteReply(sockets.writer(), reply);
  EXPECT_TRUE(ReadReply(sockets.reader()).measurement.dominated);

  MeasurementReply failed;
  failed.reason = "does not compile";
  WriteReply(sockets.writer(), failed);
  const MeasurementReply invalid = ReadReply(sockets.reader());
  EXPECT_FALSE(invalid.valid);
  EXPECT_EQ(invalid.reason, "does not compile");
}

}  // namespace
}  // namespace collage
