// image.resize2d's interpolation: the weighted input positions ("taps") each output position
// of one spatial axis reads, shared by the reference kernel and code generators.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/attrs.h"

namespace collage {

// The validated interpolation attributes.
struct ResizeOptions {
  std::string method;
  std::string coordinate_mode;
  std::string rounding;
  double cubic_a = -0.75;
};

// Reads and validates the interpolation attributes (TypeError for unknown choices).
ResizeOptions GetResizeOptions(const Attrs& attrs);

// One weighted input position read for an output position.
struct Tap {
  int64_t position;
  double weight;
};

// The taps of output position `out_index` along an axis of `in_extent` resized to `out_extent`.
std::vector<Tap> TapsOf(int64_t out_index, int64_t in_extent, int64_t out_extent, const ResizeOptions& options);

}  // namespace collage
