// CPU time used by the processes other than the tuner and its measurement worker while the worker
// served requests: the tuner's check, for the user, that the machine was quiet while candidates
// were timed. The speed probe (machine_speed.h) does not see every such disturbance: with niced
// compilers on both cores of a 2-core AMD EPYC, a small oneDNN partition timed 7x slower on two
// threads while the probe read as on the idle machine.
//
// Linux counts CPU time in clock ticks (/proc/stat for the whole machine, /proc/<pid>/stat per
// process, children it has waited for included), so one request's figure is coarse; summed over a
// tuning's requests it is not.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace collage {

// Busy CPU seconds so far: of the whole machine (all CPUs; idle and I/O wait left out), of the
// worker and of the tuner (each with the children it has waited for).
struct CpuSnapshot {
  double machine = 0;
  double worker = 0;
  double tuner = 0;
};

// The busy seconds of the "cpu " line of /proc/stat (user, nice, system, irq, softirq, steal);
// nullopt when malformed.
std::optional<double> ParseMachineBusySeconds(const std::string& proc_stat_line, double ticks_per_second);
// utime + stime + cutime + cstime of a /proc/<pid>/stat text, in seconds; nullopt when malformed.
std::optional<double> ParseProcessBusySeconds(const std::string& proc_pid_stat, double ticks_per_second);

// Now, for worker process `worker` and this process; nullopt where /proc cannot tell.
std::optional<CpuSnapshot> TakeCpuSnapshot(pid_t worker);

// CPU seconds the other processes used between two snapshots; a short interval may come out
// slightly negative, since each count is in whole clock ticks.
double OtherProcessesSeconds(const CpuSnapshot& before, const CpuSnapshot& after);

}  // namespace collage
