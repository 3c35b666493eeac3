// Times the layout conversion kernel (support/layout_conversion.h) between every pair of
// layouts on the activation shapes of mobile and residual CNNs, and prints the median
// microseconds and the bytes moved per second.
//
//   build/bin/layout_conversion_bench [--runs N]
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "cpu_line.h"
#include "guarded_main.h"
#include "latency_stats.h"
#include "support/error.h"
#include "support/layout_conversion.h"
#include "support/tensor.h"

namespace collage::bench {
namespace {

int Run(int argc, char** argv) {
  int runs = 50;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else {
      throw Error("unexpected argument '" + argument + "' (usage: layout_conversion_bench [--runs N])");
    }
  }
  if (runs < 1) throw Error("--runs must be at least 1");
  PrintCpuLine();
  const std::vector<Shape> shapes = {{1, 3, 224, 224}, {1, 32, 112, 112}, {1, 144, 56, 56}, {1, 256, 56, 56},
                                     {1, 240, 28, 28}, {1, 672, 14, 14},  {1, 1280, 7, 7}};
  std::cout << std::left << std::setw(20) << "shape" << std::setw(18) << "conversion" << std::right << std::setw(12)
            << "median us" << std::setw(12) << "p90 us" << std::setw(10) << "GB/s" << "\n";
  for (const Shape& shape : shapes) {
    for (Layout from : AllLayouts()) {
      for (Layout to : AllLayouts()) {
        if (from == to || LayoutsShareBytes(shape, from, to)) continue;
        const Tensor source = Tensor::Random(DType::kF32, PhysicalShape(shape, from), 1);
        Tensor target = Tensor::Zeros(DType::kF32, PhysicalShape(shape, to));
        std::vector<double> milliseconds;
        ConvertLayout(source, from, target, to, shape);
        for (int run = 0; run < runs; ++run) {
          milliseconds.push_back(TimeMilliseconds([&] { ConvertLayout(source, from, target, to, shape); }));
        }
        const LatencySummary summary = Summarize(milliseconds);
        const double bytes = static_cast<double>(source.NumBytes() + target.NumBytes());
        std::cout << std::left << std::setw(20) << ShapeToString(shape) << std::setw(18)
                  << std::string(LayoutName(from)) + "->" + LayoutName(to) << std::right << std::fixed
                  << std::setprecision(1) << std::setw(12) << summary.median * 1e3 << std::setw(12)
                  << summary.p90 * 1e3 << std::setw(10) << std::setprecision(2) << bytes / (summary.median * 1e6)
                  << "\n";
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace collage::bench

int main(int argc, char** argv) { return collage::bench::GuardedMain(argv[0], collage::bench::Run, argc, argv); }
