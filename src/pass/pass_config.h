// Typed configuration options for passes, registered by name ("FuseOps.max_depth").
// A PassContext holds values for them; setting an unregistered name or a value of the
// wrong kind is an Error, so a typo on the command line cannot be silently ignored.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/attrs.h"

namespace collage {

struct PassConfigOption {
  std::string name;
  AttrValue default_value;  // its kind is the option's kind
  std::string description;
};

class PassConfigRegistry {
 public:
  static PassConfigRegistry& Global();
  // Registers an option once; registering the same name again with the same kind is a no-op.
  void Register(const std::string& name, AttrValue default_value, const std::string& description);
  // Throws Error("unknown pass option 'x' (known: ...)") when absent.
  const PassConfigOption& Get(const std::string& name) const;
  std::vector<const PassConfigOption*> AllOptions() const;

 private:
  std::map<std::string, PassConfigOption> options_;
};

}  // namespace collage
