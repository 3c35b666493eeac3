// Values measured once per machine (a conversion's time, a hand-over between backends) and
// kept in the cost database under this device's fingerprint.
#pragma once

#include <functional>
#include <string>

#include "runtime/cost_database.h"

namespace collage {

// The database's value `name` for this device; else `measure()`, stored under that name.
// `database` may be null: then always `measure()`.
double RecallDeviceValue(CostDatabase* database, const std::string& name, const std::function<double()>& measure);

}  // namespace collage
