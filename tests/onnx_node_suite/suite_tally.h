// The counts of a node-suite run: every test's class (pass, refused, wrong, crash, hang), the
// refusals grouped by reason and the failures listed, printed as the driver's summary.
#pragma once

#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace collage::node_suite {

enum class SuiteClass { kPass, kRefused, kWrong, kCrash, kHang };
const char* SuiteClassName(SuiteClass suite_class);

// A refusal's reason with what varies from test to test taken out, so that tests refused for
// one reason share a group: the file name prefix and the node's name go, quoted names become
// '*' and numbers become N; the op type stays. E.g.
//   ".../test_resize/model.onnx: node 'n0' (Resize, domain 'ai.onnx', opset 13): unsupported op"
//   -> "Resize: unsupported op".
std::string RefusalGroup(const std::string& reason);

class SuiteTally {
 public:
  void Add(const std::string& test, SuiteClass suite_class, const std::string& reason);

  size_t Count(SuiteClass suite_class) const;
  size_t Total() const { return total_; }
  // Wrong, crash and hang.
  size_t Failures() const;

  // Counts per class, the refusal groups by decreasing size (with one example test each), and
  // every failing test with its reason.
  void Print(std::ostream& out) const;

 private:
  struct Group {
    size_t count = 0;
    std::string example;
  };
  size_t total_ = 0;
  std::map<SuiteClass, size_t> counts_;
  std::map<std::string, Group> refusals_;
  std::vector<std::string> failures_;  // "<class> <test>: <reason>"
};

}  // namespace collage::node_suite
