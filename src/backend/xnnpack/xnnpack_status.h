// Turning XNNPACK status codes into Errors, and the once-per-process xnn_initialize.
#pragma once

#include <xnnpack.h>

#include <string>

namespace collage::xnnpack {

// Throws Error("xnnpack: <what> failed: <status>") unless `status` is xnn_status_success.
void CheckStatus(xnn_status status, const std::string& what);

// Calls xnn_initialize the first time; throws Error when XNNPACK cannot run on this CPU.
void EnsureInitialized();

}  // namespace collage::xnnpack
