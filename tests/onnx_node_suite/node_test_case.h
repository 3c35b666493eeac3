// One test of ONNX's backend node suite (a folder with model.onnx and
// test_data_set_0/{input,output}_N.pb) run through Collage: imported, evaluated by the
// reference interpreter, placed greedily over the CPU backends and run, each result compared
// with the expected outputs.
#pragma once

#include <string>
#include <vector>

namespace collage::node_suite {

// How one test ended. Crashes and hangs are told apart by the isolating driver, not here.
struct CaseOutcome {
  enum class Kind {
    kPass,     // both runs match the expected outputs
    kRefused,  // a clear error before any result (unsupported op, type, input kind); `reason` says which
    kWrong,    // a result differs from the expected outputs, or the greedy placement failed where the
               // interpreter succeeded; `reason` says which run and how
  };
  Kind kind = Kind::kPass;
  std::string reason;
};

struct CaseOptions {
  // Backends of the greedy placement, in priority order.
  std::vector<std::string> backends;
  // Worker threads of the compiled partitions.
  int threads = 1;
};

// Every CPU backend of the registry except the interpreter: libraries and graph runtimes first
// (registration order), code generators last, so the code generator takes only what the others
// leave.
std::vector<std::string> GreedyBackendsForSuite();

// Runs the test in `folder`. Errors are caught and turned into an outcome; only a crash (or an
// exception that is not a collage::Error) escapes.
CaseOutcome RunNodeTestCase(const std::string& folder, const CaseOptions& options);

// Serialized as one line for the pipe from the isolated child: "<kind>\t<reason>".
std::string EncodeOutcome(const CaseOutcome& outcome);
// The inverse; an unreadable line is an Error.
CaseOutcome DecodeOutcome(const std::string& line);

const char* OutcomeKindName(CaseOutcome::Kind kind);

}  // namespace collage::node_suite
