// Applies the backends' load-time settings (Backend::LoadTimeEnvironment) to processes that
// run partitions. The libraries read them once, when they are loaded, before main: a program
// sets the missing ones and executes itself again; a parent adds them to a child's environment.
// A variable already set, by the user or by an earlier backend, keeps its value.
#pragma once

#include <string>
#include <vector>

#include "backend/backend.h"

namespace collage {

// `environment` ("NAME=VALUE" entries) with the registry's settings appended for every
// variable it does not set.
std::vector<std::string> WithLoadTimeEnvironment(std::vector<std::string> environment,
                                                 const BackendRegistry& registry);

// This process's environment with the registry's settings it lacks appended.
std::vector<std::string> ProcessEnvironmentWithLoadTimeSettings(const BackendRegistry& registry);

// When this process's environment lacks some of the registry's settings, executes the running
// program again with `argv` and them added (once: the second time none is missing). Returns
// when nothing was missing or the program could not be executed again.
void ReexecuteWithLoadTimeEnvironment(const BackendRegistry& registry, char** argv);

}  // namespace collage
