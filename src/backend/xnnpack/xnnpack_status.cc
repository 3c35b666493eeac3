#include "backend/xnnpack/xnnpack_status.h"

#include "support/error.h"

namespace collage::xnnpack {
namespace {

const char* StatusName(xnn_status status) {
  switch (status) {
    case xnn_status_success:
      return "success";
    case xnn_status_uninitialized:
      return "uninitialized";
    case xnn_status_invalid_parameter:
      return "invalid parameter";
    case xnn_status_invalid_state:
      return "invalid state";
    case xnn_status_unsupported_parameter:
      return "unsupported parameter";
    case xnn_status_unsupported_hardware:
      return "unsupported hardware";
    case xnn_status_out_of_memory:
      return "out of memory";
  }
  return "unknown status";
}

}  // namespace

void CheckStatus(xnn_status status, const std::string& what) {
  if (status != xnn_status_success) throw Error("xnnpack: " + what + " failed: " + StatusName(status));
}

void EnsureInitialized() {
  static const xnn_status status = xnn_initialize(/*allocator=*/nullptr);
  CheckStatus(status, "xnn_initialize");
}

}  // namespace collage::xnnpack
