#include "tuning/cpu_usage.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace collage {
namespace {

std::optional<std::string> ReadFirstLine(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  return line;
}

double TicksPerSecond() {
  const long ticks = sysconf(_SC_CLK_TCK);
  return ticks > 0 ? static_cast<double>(ticks) : 100.0;
}

std::optional<double> ProcessBusySeconds(pid_t pid) {
  const std::optional<std::string> text = ReadFirstLine("/proc/" + std::to_string(pid) + "/stat");
  return text ? ParseProcessBusySeconds(*text, TicksPerSecond()) : std::nullopt;
}

}  // namespace

std::optional<double> ParseMachineBusySeconds(const std::string& proc_stat_line, double ticks_per_second) {
  std::istringstream fields(proc_stat_line);
  std::string name;
  unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  if (!(fields >> name >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal) || name != "cpu") {
    return std::nullopt;
  }
  return static_cast<double>(user + nice + system + irq + softirq + steal) / ticks_per_second;
}

std::optional<double> ParseProcessBusySeconds(const std::string& proc_pid_stat, double ticks_per_second) {
  // The command name, field 2, is in parentheses and may hold spaces and parentheses itself.
  const size_t name_end = proc_pid_stat.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream fields(proc_pid_stat.substr(name_end + 1));
  std::string skipped;
  for (int field = 3; field < 14; ++field) {
    if (!(fields >> skipped)) return std::nullopt;
  }
  long long utime = 0, stime = 0, cutime = 0, cstime = 0;  // fields 14 to 17
  if (!(fields >> utime >> stime >> cutime >> cstime)) return std::nullopt;
  return static_cast<double>(utime + stime + cutime + cstime) / ticks_per_second;
}

std::optional<CpuSnapshot> TakeCpuSnapshot(pid_t worker) {
  const std::optional<std::string> line = ReadFirstLine("/proc/stat");
  const std::optional<double> machine = line ? ParseMachineBusySeconds(*line, TicksPerSecond()) : std::nullopt;
  const std::optional<double> worker_seconds = ProcessBusySeconds(worker);
  const std::optional<double> tuner = ProcessBusySeconds(getpid());
  if (!machine || !worker_seconds || !tuner) return std::nullopt;
  return CpuSnapshot{*machine, *worker_seconds, *tuner};
}

double OtherProcessesSeconds(const CpuSnapshot& before, const CpuSnapshot& after) {
  return (after.machine - before.machine) - (after.worker - before.worker) - (after.tuner - before.tuner);
}

}  // namespace collage
