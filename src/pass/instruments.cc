#include "pass/instruments.h"

#include <cstdio>

#include "ir/printer.h"

namespace collage {
namespace {

bool Matches(const std::set<std::string>& names, const std::string& name) {
  return names.count("*") > 0 || names.count(name) > 0;
}

}  // namespace

void PrintIRInstrument::RunBeforePass(const Module& module, const PassInfo& info) {
  if (Matches(before_, info.name)) out_ << "// IR before " << info.name << "\n" << PrintModule(module) << "\n";
}

void PrintIRInstrument::RunAfterPass(const Module& module, const PassInfo& info) {
  if (Matches(after_, info.name)) out_ << "// IR after " << info.name << "\n" << PrintModule(module) << "\n";
}

void PassTimingInstrument::RunBeforePass(const Module&, const PassInfo&) {
  started_.push_back(std::chrono::steady_clock::now());
}

void PassTimingInstrument::RunAfterPass(const Module&, const PassInfo& info) {
  const auto elapsed = std::chrono::steady_clock::now() - started_.back();
  started_.pop_back();
  entries_.push_back(Entry{info.name, std::chrono::duration<double>(elapsed).count()});
}

std::string PassTimingInstrument::Report() const {
  std::string report;
  for (const Entry& entry : entries_) {
    char line[160];
    std::snprintf(line, sizeof(line), "  %-32s %10.3f ms\n", entry.pass_name.c_str(), entry.seconds * 1e3);
    report += line;
  }
  return report;
}

}  // namespace collage
