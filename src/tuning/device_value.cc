#include "tuning/device_value.h"

#include "runtime/device_fingerprint.h"

namespace collage {

double RecallDeviceValue(CostDatabase* database, const std::string& name, const std::function<double()>& measure) {
  if (database == nullptr) return measure();
  const std::string device = DeviceFingerprint();
  if (const std::optional<double> known = database->LookupDeviceValue(device, name)) return *known;
  const double value = measure();
  database->StoreDeviceValue(device, name, value);
  return value;
}

}  // namespace collage
