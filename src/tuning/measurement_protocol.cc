#include "tuning/measurement_protocol.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <vector>

#include "io/npy.h"
#include "ir/module.h"
#include "parser/parser.h"
#include "ir/printer.h"
#include "support/error.h"

namespace collage {
namespace {

// Constants with more elements travel as binary .npy rather than as text.
constexpr int64_t kLargestTextConstant = 64;

void SendAll(int socket, const void* data, size_t size) {
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t sent = send(socket, bytes, size, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) throw Error(std::string("measurement: cannot write to the peer: ") + std::strerror(errno));
    bytes += sent;
    size -= static_cast<size_t>(sent);
  }
}

void SendAll(int socket, const std::string& text) { SendAll(socket, text.data(), text.size()); }

// False when the stream ended before the first byte; throws when it ends in the middle.
bool ReceiveExactly(int socket, void* data, size_t size) {
  char* bytes = static_cast<char*>(data);
  size_t received = 0;
  while (received < size) {
    const ssize_t count = recv(socket, bytes + received, size - received, 0);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) throw Error(std::string("measurement: cannot read from the peer: ") + std::strerror(errno));
    if (count == 0) {
      if (received == 0) return false;
      throw Error("measurement: the peer closed the stream in the middle of a message");
    }
    received += static_cast<size_t>(count);
  }
  return true;
}

// One line without its '\n'; nullopt when the stream ended before it started.
std::optional<std::string> ReceiveLine(int socket) {
  std::string line;
  char c;
  while (true) {
    if (!ReceiveExactly(socket, &c, 1)) {
      if (line.empty()) return std::nullopt;
      throw Error("measurement: the peer closed the stream in the middle of a line");
    }
    if (c == '\n') return line;
    line += c;
  }
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

void WriteRequest(int socket, const MeasurementRequest& request) {
  std::vector<Tensor> meta;
  PrintOptions print_options;
  print_options.max_inline_constant_elements = kLargestTextConstant;
  print_options.meta_table = &meta;
  const std::string text = PrintFunction(request.function, "main", print_options);
  std::ostringstream header;
  header.precision(17);
  const MeasurementOptions& options = request.options;
  header << "measure " << request.backend << ' ' << request.threads << ' ' << request.seed << ' '
         << options.warmup_runs << ' ' << options.min_runs << ' ' << options.max_runs << ' '
         << options.budget_seconds << ' ' << options.target_relative_error << ' '
         << options.dominated_above_seconds << ' ' << options.percentile << ' ' << options.cool_down_bytes << ' '
         << options.cool_down_seconds << ' ' << text.size() << ' ' << meta.size() << '\n';
  SendAll(socket, header.str());
  SendAll(socket, text);
  for (const Tensor& tensor : meta) {
    const std::string npy_header = EncodeNpyHeader(tensor.dtype(), tensor.shape(), "measurement request");
    SendAll(socket, std::to_string(npy_header.size() + tensor.NumBytes()) + "\n");
    SendAll(socket, npy_header);
    SendAll(socket, tensor.raw_data(), tensor.NumBytes());
  }
}

std::optional<MeasurementRequest> ReadRequest(int socket) {
  const std::optional<std::string> line = ReceiveLine(socket);
  if (!line) return std::nullopt;
  std::istringstream header(*line);
  std::string word;
  MeasurementRequest request;
  MeasurementOptions& options = request.options;
  size_t text_bytes = 0, meta_count = 0;
  header >> word >> request.backend >> request.threads >> request.seed >> options.warmup_runs >> options.min_runs >>
      options.max_runs >> options.budget_seconds >> options.target_relative_error >> options.dominated_above_seconds >>
      options.percentile >>
      options.cool_down_bytes >> options.cool_down_seconds >> text_bytes >> meta_count;
  if (!header || word != "measure") throw Error("measurement: malformed request header '" + *line + "'");
  std::string text(text_bytes, '\0');
  if (!ReceiveExactly(socket, text.data(), text.size())) throw Error("measurement: the request has no function");
  std::vector<Tensor> meta;
  for (size_t i = 0; i < meta_count; ++i) {
    const std::optional<std::string> size_line = ReceiveLine(socket);
    if (!size_line) throw Error("measurement: the request ends before its constants");
    std::vector<std::byte> bytes(std::stoull(*size_line));
    if (!ReceiveExactly(socket, bytes.data(), bytes.size())) throw Error("measurement: a constant is missing");
    meta.push_back(DecodeNpy(bytes, "measurement request constant " + std::to_string(i)));
  }
  const Module module = ParseModule(text, "<measurement request>", meta);
  request.function = module.main();
  return request;
}

void WriteReply(int socket, const MeasurementReply& reply) {
  std::ostringstream line;
  line.precision(17);
  if (reply.valid) {
    const Measurement& m = reply.measurement;
    line << "ok " << m.seconds << ' ' << m.median_seconds << ' ' << m.p10_seconds << ' ' << m.p90_seconds << ' '
         << m.runs << ' ' << (m.dominated ? 1 : 0) << '\n';
  } else {
    line << "invalid " << OneLine(reply.reason) << '\n';
  }
  SendAll(socket, line.str());
}

MeasurementReply ReadReply(int socket) {
  const std::optional<std::string> line = ReceiveLine(socket);
  if (!line) throw Error("measurement: the worker closed the stream without replying");
  MeasurementReply reply;
  if (line->rfind("invalid ", 0) == 0) {
    reply.reason = line->substr(8);
    return reply;
  }
  std::istringstream fields(*line);
  std::string word;
  Measurement& m = reply.measurement;
  int dominated = 0;
  fields >> word >> m.seconds >> m.median_seconds >> m.p10_seconds >> m.p90_seconds >> m.runs >> dominated;
  m.dominated = dominated != 0;
  if (!fields || word != "ok") throw Error("measurement: malformed reply '" + *line + "'");
  reply.valid = true;
  return reply;
}

}  // namespace collage
