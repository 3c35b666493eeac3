// Command-line parsing for the collage CLI: each command declares its options in a
// CommandSpec; ParseArguments checks the arguments against it and throws UsageError
// (exit status 2) for anything the spec does not allow.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "collage/error.h"

namespace collage::cli {

// Bad usage: unknown command or option, a missing or malformed value. `command` names the
// command whose --help the message should point to (empty: the top-level help).
class UsageError : public collage::UsageError {
 public:
  UsageError(const std::string& message, std::string command = "")
      : collage::UsageError(message), command_(std::move(command)) {}
  const std::string& command() const { return command_; }

 private:
  std::string command_;
};

struct OptionSpec {
  std::vector<std::string> names;  // the canonical name first: {"--output", "-o"}
  std::string value_name;          // e.g. "S"; empty for a switch such as --check
  std::string help;
  bool repeatable = false;         // may be given more than once (Values() lists them in order)
};

struct CommandSpec {
  std::string name;        // "run"
  std::string positional;  // "MODEL"; empty when the command takes no positional argument
  std::string summary;     // one line for `collage --help`
  std::vector<OptionSpec> options;
};

class ParsedArguments {
 public:
  // Set when the arguments contain -h or --help; nothing else is checked then.
  bool help_requested = false;
  // The positional argument (empty when the command takes none).
  std::string positional;

  // Options by canonical name; a switch has an empty value.
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  // The value of an option (of a repeatable one: the last given).
  std::optional<std::string> Value(const std::string& name) const;
  // Every value of an option, in the order given; empty when absent.
  std::vector<std::string> Values(const std::string& name) const;
  // The value parsed as an unsigned integer in [minimum, maximum]; `fallback` when absent.
  // A malformed value is a UsageError naming the option and the range, followed by
  // `range_reason` in parentheses when there is one.
  uint64_t UnsignedValue(const std::string& name, uint64_t fallback, uint64_t minimum = 0,
                         uint64_t maximum = UINT64_MAX, const std::string& range_reason = "") const;

 private:
  friend ParsedArguments ParseArguments(const CommandSpec& spec, std::span<const std::string> arguments);
  std::string command_;
  std::map<std::string, std::vector<std::string>> values_;
};

// Accepts "--name value", "--name=value", switches, one positional argument and "--"
// (everything after it is positional).
ParsedArguments ParseArguments(const CommandSpec& spec, std::span<const std::string> arguments);

// "usage: collage run MODEL [--seed S] ..." followed by one line per option.
std::string CommandUsage(const CommandSpec& spec);

// Splits "a,b,c" at commas; empty items are a UsageError naming `option`.
std::vector<std::string> SplitList(const std::string& text, const std::string& option, const std::string& command);

// Runs a library check (api::CheckCompileOptions, ...); a collage::UsageError it throws becomes a
// UsageError for `command`, with the same message.
template <typename LibraryCheck>
void CheckForCommand(const std::string& command, LibraryCheck check) {
  try {
    check();
  } catch (const collage::UsageError& error) {
    throw UsageError(error.what(), command);
  }
}

}  // namespace collage::cli
