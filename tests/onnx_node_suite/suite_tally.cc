#include "onnx_node_suite/suite_tally.h"

#include <algorithm>
#include <cctype>
#include <iomanip>

namespace collage::node_suite {
namespace {

constexpr SuiteClass kClasses[] = {SuiteClass::kPass, SuiteClass::kRefused, SuiteClass::kWrong, SuiteClass::kCrash,
                                   SuiteClass::kHang};

// Quoted text becomes '*', digit runs become N.
std::string Generalize(const std::string& text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'') {
      const size_t close = text.find('\'', i + 1);
      if (close != std::string::npos) {
        result += "'*'";
        i = close;
        continue;
      }
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
      result += 'N';
      continue;
    }
    result += c;
  }
  return result;
}

}  // namespace

const char* SuiteClassName(SuiteClass suite_class) {
  switch (suite_class) {
    case SuiteClass::kPass:
      return "pass";
    case SuiteClass::kRefused:
      return "refused";
    case SuiteClass::kWrong:
      return "wrong";
    case SuiteClass::kCrash:
      return "crash";
    case SuiteClass::kHang:
      return "hang";
  }
  return "?";
}

std::string RefusalGroup(const std::string& reason) {
  std::string text = reason;
  // "<path>.onnx: " or "<path>.pb: " prefixes name the test's files.
  for (const char* suffix : {".onnx: ", ".pb: "}) {
    const size_t end = text.find(suffix);
    if (end != std::string::npos) {
      const size_t start = text.rfind(' ', end);
      const size_t from = start == std::string::npos ? 0 : start + 1;
      text.erase(from, end + std::string(suffix).size() - from);
    }
  }
  // "node 'name' (OpType, domain 'd', opset N): message" -> "OpType: message" (an unnamed
  // node reads "node #3 (output 'y') (OpType, ...").
  const size_t comma = text.find(", domain '");
  const size_t open = comma == std::string::npos ? std::string::npos : text.rfind(" (", comma);
  const size_t node = open == std::string::npos ? std::string::npos : text.rfind("node ", open);
  const size_t close = comma == std::string::npos ? std::string::npos : text.find("): ", comma);
  if (node != std::string::npos && close != std::string::npos) {
    const std::string op_type = text.substr(open + 2, comma - open - 2);
    text = text.substr(0, node) + op_type + ": " + Generalize(text.substr(close + 3));
  } else {
    text = Generalize(text);
  }
  constexpr size_t kMaxGroupLength = 160;
  if (text.size() > kMaxGroupLength) text = text.substr(0, kMaxGroupLength) + "...";
  return text;
}

void SuiteTally::Add(const std::string& test, SuiteClass suite_class, const std::string& reason) {
  ++total_;
  ++counts_[suite_class];
  if (suite_class == SuiteClass::kRefused) {
    Group& group = refusals_[RefusalGroup(reason)];
    if (group.count++ == 0) group.example = test;
  } else if (suite_class != SuiteClass::kPass) {
    failures_.push_back(std::string(SuiteClassName(suite_class)) + " " + test + ": " + reason);
  }
}

size_t SuiteTally::Count(SuiteClass suite_class) const {
  auto found = counts_.find(suite_class);
  return found == counts_.end() ? 0 : found->second;
}

size_t SuiteTally::Failures() const {
  return Count(SuiteClass::kWrong) + Count(SuiteClass::kCrash) + Count(SuiteClass::kHang);
}

void SuiteTally::Print(std::ostream& out) const {
  std::vector<std::pair<std::string, Group>> groups(refusals_.begin(), refusals_.end());
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  out << "refusals by reason (count, example test, reason):\n";
  for (const auto& [reason, group] : groups) {
    out << std::setw(5) << group.count << "  " << group.example << "  " << reason << "\n";
  }
  if (!failures_.empty()) {
    out << "failures:\n";
    for (const std::string& failure : failures_) out << "  " << failure << "\n";
  }
  out << "node suite: " << total_ << " tests:";
  for (SuiteClass suite_class : kClasses) out << " " << SuiteClassName(suite_class) << " " << Count(suite_class);
  if (total_ > 0) {
    out << " (pass " << std::fixed << std::setprecision(1)
        << 100.0 * static_cast<double>(Count(SuiteClass::kPass)) / static_cast<double>(total_) << " %)";
    out.unsetf(std::ios::fixed);
  }
  out << "\n";
}

}  // namespace collage::node_suite
