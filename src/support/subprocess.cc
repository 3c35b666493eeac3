#include "support/subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

extern char** environ;

namespace collage {

int RunProgram(const std::vector<std::string>& argv, const ProgramStreams& streams) {
  if (argv.empty()) return kProgramNotStarted;
  std::vector<char*> arguments;
  for (const std::string& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!streams.input.empty()) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, streams.input.c_str(), O_RDONLY, 0);
  const int written = O_WRONLY | O_CREAT | O_TRUNC;
  if (!streams.output.empty()) posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, streams.output.c_str(), written, 0644);
  if (streams.error_to_output) {
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else if (!streams.error.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, streams.error.c_str(), written, 0644);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, arguments[0], &actions, nullptr, arguments.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return kProgramNotStarted;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return kProgramNotStarted;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace collage
