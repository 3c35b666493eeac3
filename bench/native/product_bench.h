// The matrix-product benchmark of native_bench: native against oneDNN on transformer and CNN
// shapes.
#pragma once

#include <string>

namespace collage {

// Times each shape's function compiled by native and by oneDNN, interleaved, after checking
// that both compute the same outputs; prints medians, percentiles and the native / oneDNN
// ratio. `runs` timed runs per backend after 3 warm-up runs; only the shapes whose names
// contain `filter`.
void BenchProducts(int threads, int runs, const std::string& filter);

}  // namespace collage
