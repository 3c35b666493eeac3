// The ONNX backend node suite driver: runs every test folder under the node directory (from
// Debian's libonnx-testdata) through the reference interpreter and a greedy placement over the
// CPU backends, each test in a forked child with a time limit, prints the counts per class and
// the refusals by reason, and fails on any wrong result, crash or hang, or when fewer tests
// pass than the recorded floor.
//
//   collage_onnx_node_suite NODE_DIR [--min-pass N] [--time-limit SECONDS] [--filter TEXT] [--verbose]
//
// Exit status: 0 success, 1 failure, 2 bad arguments, 77 (ctest's skip) when NODE_DIR is
// missing or empty.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "backend/load_time_environment.h"
#include "onnx_node_suite/isolated_call.h"
#include "onnx_node_suite/node_test_case.h"
#include "onnx_node_suite/suite_tally.h"
#include "support/error.h"

namespace collage::node_suite {
namespace {

constexpr int kSkipped = 77;

struct DriverOptions {
  std::string node_dir;
  size_t min_pass = 0;
  double time_limit_seconds = 60.0;
  std::string filter;
  bool verbose = false;
};

[[noreturn]] void Usage(const std::string& message) {
  std::cerr << "collage_onnx_node_suite: " << message
            << "\nusage: collage_onnx_node_suite NODE_DIR [--min-pass N] [--time-limit SECONDS] [--filter TEXT] "
               "[--verbose]\n";
  std::exit(2);
}

DriverOptions ParseOptions(int argc, char** argv) {
  DriverOptions options;
  bool node_dir_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(argument + " needs a value");
      return argv[++i];
    };
    try {
      if (argument == "--min-pass") {
        options.min_pass = std::stoul(value());
      } else if (argument == "--time-limit") {
        options.time_limit_seconds = std::stod(value());
      } else if (argument == "--filter") {
        options.filter = value();
      } else if (argument == "--verbose") {
        options.verbose = true;
      } else if (argument.starts_with("--") || node_dir_given) {
        Usage("unexpected argument '" + argument + "'");
      } else {
        options.node_dir = argument;
        node_dir_given = true;
      }
    } catch (const std::logic_error&) {
      Usage("bad value for " + argument);
    }
  }
  if (!node_dir_given) Usage("no NODE_DIR given (an empty one skips)");
  if (options.time_limit_seconds <= 0) Usage("--time-limit must be positive");
  return options;
}

std::vector<std::filesystem::path> TestFolders(const DriverOptions& options) {
  std::vector<std::filesystem::path> folders;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(options.node_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (!std::filesystem::exists(entry.path() / "model.onnx")) continue;
    if (!options.filter.empty() && name.find(options.filter) == std::string::npos) continue;
    folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  return folders;
}

int Main(int argc, char** argv) {
  const DriverOptions options = ParseOptions(argc, argv);
  const std::vector<std::filesystem::path> folders =
      options.node_dir.empty() ? std::vector<std::filesystem::path>{} : TestFolders(options);
  if (folders.empty()) {
    std::cout << "skipped: no ONNX node tests under '" << options.node_dir
              << "' (install Debian's libonnx-testdata: scripts/setup.sh)\n";
    return kSkipped;
  }
  CaseOptions case_options;
  case_options.backends = GreedyBackendsForSuite();
  std::string backends;
  for (const std::string& name : case_options.backends) backends += (backends.empty() ? "" : ",") + name;
  std::cout << "ONNX node suite: " << folders.size() << " tests under " << options.node_dir
            << "; greedy placement over " << backends << "\n";

  SuiteTally tally;
  for (const std::filesystem::path& folder : folders) {
    const std::string test = folder.filename().string();
    const IsolatedResult isolated = RunIsolated(
        [&] { return EncodeOutcome(RunNodeTestCase(folder.string(), case_options)); }, options.time_limit_seconds);
    SuiteClass suite_class = SuiteClass::kPass;
    std::string reason;
    switch (isolated.status) {
      case IsolatedResult::Status::kCrashed:
        suite_class = SuiteClass::kCrash;
        reason = isolated.detail;
        break;
      case IsolatedResult::Status::kTimedOut:
        suite_class = SuiteClass::kHang;
        reason = isolated.detail;
        break;
      case IsolatedResult::Status::kFinished: {
        const CaseOutcome outcome = DecodeOutcome(isolated.output);
        reason = outcome.reason;
        suite_class = outcome.kind == CaseOutcome::Kind::kPass      ? SuiteClass::kPass
                      : outcome.kind == CaseOutcome::Kind::kRefused ? SuiteClass::kRefused
                                                                    : SuiteClass::kWrong;
        break;
      }
    }
    tally.Add(test, suite_class, reason);
    if (options.verbose) {
      std::cout << SuiteClassName(suite_class) << " " << test << (reason.empty() ? "" : ": " + reason) << std::endl;
    }
  }
  tally.Print(std::cout);
  bool failed = false;
  if (tally.Failures() > 0) {
    std::cout << "FAILED: " << tally.Failures() << " tests gave a wrong result, crashed or hung\n";
    failed = true;
  }
  if (tally.Count(SuiteClass::kPass) < options.min_pass) {
    std::cout << "FAILED: " << tally.Count(SuiteClass::kPass) << " tests pass, below the recorded floor of "
              << options.min_pass << "\n";
    failed = true;
  }
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace collage::node_suite

int main(int argc, char** argv) {
  collage::ReexecuteWithLoadTimeEnvironment(collage::BackendRegistry::Global(), argv);
  try {
    return collage::node_suite::Main(argc, argv);
  } catch (const collage::Error& error) {
    std::cerr << "collage_onnx_node_suite: " << error.what() << "\n";
    return 1;
  }
}
