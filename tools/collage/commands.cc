#include "commands.h"

namespace collage::cli {

const std::vector<Command>& AllCommands() {
  static const std::vector<Command> commands = {
      {ImportCommandSpec(), &RunImportCommand},
      {PartitionCommandSpec(), &RunPartitionCommand},
      {RunCommandSpec(), &RunRunCommand},
      {BenchCommandSpec(), &RunBenchCommand},
      {BackendsCommandSpec(), &RunBackendsCommand},
      {DbCommandSpec(), &RunDbCommand},
  };
  return commands;
}

const Command* FindCommand(const std::string& name) {
  for (const Command& command : AllCommands()) {
    if (command.spec.name == name) return &command;
  }
  return nullptr;
}

std::string GeneralUsage() {
  std::string usage =
      "usage: collage COMMAND [ARGS...]\n"
      "\n"
      "Collage: a deep-learning inference compiler that places each part of a model on the\n"
      "backend that runs it fastest. MODEL is a text-IR file (.cir) or an ONNX model (.onnx).\n"
      "\n"
      "commands:\n";
  for (const Command& command : AllCommands()) {
    std::string name = command.spec.name;
    name.resize(12, ' ');
    usage += "  " + name + command.spec.summary + "\n";
  }
  usage +=
      "  help        show this help, or `collage help COMMAND` for one command\n"
      "\n"
      "Placing a model: `collage partition MODEL --backends B1,B2 -o PLAN` prints the chosen\n"
      "partitions with their estimated costs; `collage run MODEL --plan PLAN` runs that plan.\n"
      "\n"
      "Run `collage COMMAND --help` for the options of a command.\n"
      "Exit status: 0 on success, 2 for bad usage, 1 for any other error.\n";
  return usage;
}

}  // namespace collage::cli
