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
  bool exclude_outside = false;     // taps outside the input get weight 0; the others are renormalized
  std::vector<double> scales;       // per spatial axis; empty: output extent / input extent
};

// Reads and validates the interpolation attributes (TypeError for unknown choices).
ResizeOptions GetResizeOptions(const Attrs& attrs);

// One weighted input position read for an output position.
struct Tap {
  int64_t position;
  double weight;
};

// The taps of output position `out_index` along spatial axis `axis` (0: height, 1: width) of
// `in_extent` resized to `out_extent`.
std::vector<Tap> TapsOf(int axis, int64_t out_index, int64_t in_extent, int64_t out_extent,
                        const ResizeOptions& options);

}  // namespace collage
