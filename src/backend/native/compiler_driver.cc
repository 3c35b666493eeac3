#include "backend/native/compiler_driver.h"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "support/error.h"
#include "support/subprocess.h"

namespace collage::native {
namespace {

std::atomic<uint64_t> g_invocations{0};
std::atomic<uint64_t> g_temporary_serial{0};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first line mentioning an error, else the first non-empty line.
std::string FirstErrorLine(const std::string& log) {
  std::istringstream lines(log);
  std::string line;
  std::string first;
  while (std::getline(lines, line)) {
    if (line.find("error") != std::string::npos) return line;
    if (first.empty() && !line.empty()) first = line;
  }
  return first.empty() ? "no output" : first;
}

}  // namespace

std::vector<std::string> CompilerFlags(const CompilerConfig& config) {
  std::vector<std::string> flags = {"-std=c++20", "-O3",     "-march=native", "-fno-math-errno", "-fno-trapping-math",
                                    "-fPIC",      "-shared", "-fvisibility=hidden", "-fopenmp-simd"};
  flags.insert(flags.end(), config.extra_flags.begin(), config.extra_flags.end());
  return flags;
}

std::string CompilerVersion(const CompilerConfig& config) {
  static std::mutex mutex;
  static std::map<std::string, std::string> versions;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = versions.find(config.compiler); it != versions.end()) return it->second;
  char log_template[] = "/tmp/collage_native_version_XXXXXX";
  const int fd = mkstemp(log_template);
  std::string version = "unknown";
  if (fd >= 0) {
    close(fd);
    if (RunProgram({config.compiler, "--version"}, {.output = log_template, .error_to_output = true}) == 0) {
      const std::string log = ReadFile(log_template);
      version = log.substr(0, log.find('\n'));
    }
    unlink(log_template);
  }
  versions[config.compiler] = version;
  return version;
}

void CompileSharedObject(const CompilerConfig& config, const std::string& source_path, const std::string& include_dir,
                         const std::string& output_path) {
  const std::string temporary = output_path + ".tmp." + std::to_string(getpid()) + "." +
                                std::to_string(g_temporary_serial.fetch_add(1));
  const std::string log_path = temporary + ".log";
  std::vector<std::string> argv = {config.compiler};
  for (const std::string& flag : CompilerFlags(config)) argv.push_back(flag);
  argv.insert(argv.end(), {"-I", include_dir, source_path, "-o", temporary});
  ++g_invocations;
  const int status = RunProgram(argv, {.output = log_path, .error_to_output = true});
  const std::string log = ReadFile(log_path);
  unlink(log_path.c_str());
  if (status != 0) {
    unlink(temporary.c_str());
    if (status == 127 && log.empty()) throw Error("native: could not run the compiler '" + config.compiler + "'");
    throw Error("native: compiler failed: " + FirstErrorLine(log));
  }
  if (rename(temporary.c_str(), output_path.c_str()) != 0) {
    unlink(temporary.c_str());
    throw Error("native: cannot move the compiled kernel to " + output_path);
  }
}

uint64_t CompilerInvocations() { return g_invocations.load(); }

}  // namespace collage::native
