// The commands of the collage CLI. Each command_<name>.cc defines its spec
// and its entry point; commands.cc lists them. An entry point returns the exit status
// (0 on success) and throws UsageError for bad usage and Error for any other failure.
#pragma once

#include <string>
#include <vector>

#include "arguments.h"

namespace collage::cli {

struct Command {
  CommandSpec spec;
  int (*run)(const ParsedArguments& arguments);
};

// All commands, in the order `collage --help` lists them.
const std::vector<Command>& AllCommands();
// nullptr when there is no such command.
const Command* FindCommand(const std::string& name);
// The top-level help: usage line, commands with their summaries, exit codes.
std::string GeneralUsage();

CommandSpec ImportCommandSpec();
int RunImportCommand(const ParsedArguments& arguments);

CommandSpec RunCommandSpec();
int RunRunCommand(const ParsedArguments& arguments);

CommandSpec PartitionCommandSpec();
int RunPartitionCommand(const ParsedArguments& arguments);

CommandSpec BenchCommandSpec();
int RunBenchCommand(const ParsedArguments& arguments);

CommandSpec BackendsCommandSpec();
int RunBackendsCommand(const ParsedArguments& arguments);

CommandSpec DbCommandSpec();
int RunDbCommand(const ParsedArguments& arguments);

}  // namespace collage::cli
