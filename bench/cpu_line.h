// The line each benchmark prints first: the CPU its figures come from.
#pragma once

#include <iostream>

#include "runtime/device_fingerprint.h"

namespace collage::bench {

inline void PrintCpuLine() { std::cout << "cpu: " << DeviceFingerprint() << "\n"; }

}  // namespace collage::bench
