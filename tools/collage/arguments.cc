#include "arguments.h"

#include <charconv>

namespace collage::cli {
namespace {

const OptionSpec* FindOption(const CommandSpec& spec, const std::string& name) {
  for (const OptionSpec& option : spec.options) {
    for (const std::string& alias : option.names) {
      if (alias == name) return &option;
    }
  }
  return nullptr;
}

bool LooksLikeOption(const std::string& argument) { return argument.size() > 1 && argument[0] == '-'; }

}  // namespace

std::optional<std::string> ParsedArguments::Value(const std::string& name) const {
  auto found = values_.find(name);
  if (found == values_.end()) return std::nullopt;
  return found->second.back();
}

std::vector<std::string> ParsedArguments::Values(const std::string& name) const {
  auto found = values_.find(name);
  return found == values_.end() ? std::vector<std::string>{} : found->second;
}

uint64_t ParsedArguments::UnsignedValue(const std::string& name, uint64_t fallback, uint64_t minimum,
                                        uint64_t maximum, const std::string& range_reason) const {
  const std::optional<std::string> text = Value(name);
  if (!text) return fallback;
  uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [stop, status] = std::from_chars(text->data(), end, value);
  if (text->empty() || status != std::errc() || stop != end || value < minimum || value > maximum) {
    throw UsageError(name + " expects an integer in [" + std::to_string(minimum) + ", " + std::to_string(maximum) +
                         "]" + (range_reason.empty() ? "" : " (" + range_reason + ")") + ", got '" + *text + "'",
                     command_);
  }
  return value;
}

ParsedArguments ParseArguments(const CommandSpec& spec, std::span<const std::string> arguments) {
  ParsedArguments parsed;
  parsed.command_ = spec.name;
  std::vector<std::string> positionals;
  bool options_ended = false;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (options_ended || !LooksLikeOption(argument)) {
      positionals.push_back(argument);
      continue;
    }
    if (argument == "--") {
      options_ended = true;
      continue;
    }
    if (argument == "-h" || argument == "--help") {
      parsed.help_requested = true;
      return parsed;
    }
    const size_t equals = argument.find('=');
    const std::string name = argument.substr(0, equals);
    const OptionSpec* option = FindOption(spec, name);
    if (option == nullptr) throw UsageError("unknown option '" + name + "' for '" + spec.name + "'", spec.name);
    const std::string& canonical = option->names.front();
    if (parsed.Has(canonical) && !option->repeatable) throw UsageError("option " + canonical + " given twice", spec.name);
    std::string value;
    if (option->value_name.empty()) {
      if (equals != std::string::npos) throw UsageError("option " + name + " takes no value", spec.name);
    } else if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else if (i + 1 < arguments.size()) {
      value = arguments[++i];
    } else {
      throw UsageError("option " + name + " needs a value (" + option->value_name + ")", spec.name);
    }
    parsed.values_[canonical].push_back(value);
  }
  if (spec.positional.empty()) {
    if (!positionals.empty()) throw UsageError("unexpected argument '" + positionals.front() + "'", spec.name);
  } else {
    if (positionals.empty()) throw UsageError("missing " + spec.positional, spec.name);
    if (positionals.size() > 1) throw UsageError("unexpected argument '" + positionals[1] + "'", spec.name);
    parsed.positional = positionals.front();
  }
  return parsed;
}

std::string CommandUsage(const CommandSpec& spec) {
  std::string usage = "usage: collage " + spec.name;
  if (!spec.positional.empty()) usage += " " + spec.positional;
  for (const OptionSpec& option : spec.options) {
    usage += " [" + option.names.front() + (option.value_name.empty() ? "" : " " + option.value_name) + "]";
  }
  usage += "\n\n" + spec.summary + "\n";
  if (!spec.options.empty()) usage += "\noptions:\n";
  for (const OptionSpec& option : spec.options) {
    std::string names;
    for (const std::string& alias : option.names) names += (names.empty() ? "" : ", ") + alias;
    if (!option.value_name.empty()) names += " " + option.value_name;
    names.resize(std::max<size_t>(names.size() + 2, 26), ' ');
    usage += "  " + names + option.help + "\n";
  }
  return usage;
}

std::vector<std::string> SplitList(const std::string& text, const std::string& option, const std::string& command) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) throw UsageError(option + " has an empty item in '" + text + "'", command);
    items.push_back(std::move(item));
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

}  // namespace collage::cli
