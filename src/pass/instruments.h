// Pass instruments: print the IR around named passes, and time every pass.
#pragma once

#include <chrono>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "pass/pass.h"

namespace collage {

// Prints the module in text form before and/or after each pass whose name is listed
// ("*" matches every pass).
class PrintIRInstrument : public PassInstrument {
 public:
  PrintIRInstrument(std::ostream& out, std::set<std::string> before, std::set<std::string> after)
      : out_(out), before_(std::move(before)), after_(std::move(after)) {}
  void RunBeforePass(const Module& module, const PassInfo& info) override;
  void RunAfterPass(const Module& module, const PassInfo& info) override;

 private:
  std::ostream& out_;
  std::set<std::string> before_;
  std::set<std::string> after_;
};

// Records the wall time of each pass run, in order.
class PassTimingInstrument : public PassInstrument {
 public:
  struct Entry {
    std::string pass_name;
    double seconds;
  };
  void RunBeforePass(const Module& module, const PassInfo& info) override;
  void RunAfterPass(const Module& module, const PassInfo& info) override;
  const std::vector<Entry>& entries() const { return entries_; }
  // One line per pass: "  FoldConstant    1.234 ms".
  std::string Report() const;

 private:
  std::vector<std::chrono::steady_clock::time_point> started_;  // a stack: passes may nest
  std::vector<Entry> entries_;
};

}  // namespace collage
