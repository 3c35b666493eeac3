// Reports for the report tests: one built by the partitioner from a small graph, and one
// written by hand with strings that need escaping.
#pragma once

#include "report/placement_report.h"

namespace collage::report_testing {

// x -> relu -> tanh -> exp partitioned on backend "a" (relu, 0.5 ms) and backend "b" (tanh
// and exp, 1 ms per partition whatever its size): partitions a(relu) and b(tanh+exp), whose
// best losing alternative is b(tanh) + b(exp) at 2 ms.
PlacementReport MakeUnaryChainReport();

// Two partitions on backends "<a&b>" and "c'\"d" with labels, symbols and a model path full of
// characters that HTML and dot must escape, measured: 1.5 ms estimated, 2 ms end to end.
PlacementReport MakeHandWrittenReport();

}  // namespace collage::report_testing
