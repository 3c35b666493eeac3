#include "command_line.h"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "arguments.h"
#include "collage/backends.h"
#include "commands.h"

namespace collage::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int ShowHelp(const std::vector<std::string>& topics) {
  if (topics.empty()) {
    std::cout << GeneralUsage();
    return kExitOk;
  }
  if (topics.size() > 1) throw UsageError("help takes at most one COMMAND");
  const Command* command = FindCommand(topics.front());
  if (command == nullptr) throw UsageError("unknown command '" + topics.front() + "'");
  std::cout << CommandUsage(command->spec);
  return kExitOk;
}

int Dispatch(const std::vector<std::string>& arguments) {
  if (arguments.empty()) throw UsageError("missing COMMAND");
  const std::string& name = arguments.front();
  const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
  if (name == "help" || name == "--help" || name == "-h") return ShowHelp(rest);
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    if (name.size() > 1 && name[0] == '-') throw UsageError("unknown option '" + name + "'");
    throw UsageError("unknown command '" + name + "'");
  }
  const ParsedArguments parsed = ParseArguments(command->spec, rest);
  if (parsed.help_requested) {
    std::cout << CommandUsage(command->spec);
    return kExitOk;
  }
  return command->run(parsed);
}

// Messages are printed on one line whatever they contain.
std::string OneLine(std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return message;
}

}  // namespace

int RunCommandLine(int argc, char** argv) {
  api::ReexecuteWithBackendEnvironment(argv);
  try {
    return Dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& error) {
    const std::string help = error.command().empty() ? "collage --help" : "collage " + error.command() + " --help";
    std::cerr << "collage: error: " << OneLine(error.what()) << " (run '" << help << "' for usage)" << std::endl;
    return kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "collage: error: " << OneLine(error.what()) << std::endl;
    return kExitError;
  } catch (...) {
    std::cerr << "collage: error: unknown exception" << std::endl;
    return kExitError;
  }
}

}  // namespace collage::cli
