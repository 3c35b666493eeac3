#include "pipeline/precision_request.h"

namespace collage {

const char* PrecisionModeName(PrecisionMode mode) { return mode == PrecisionMode::kAuto ? "auto" : "fp32"; }

std::optional<PrecisionMode> ParsePrecisionMode(std::string_view name) {
  if (name == "fp32") return PrecisionMode::kFp32;
  if (name == "auto") return PrecisionMode::kAuto;
  return std::nullopt;
}

}  // namespace collage
