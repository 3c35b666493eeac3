#include "backend/xnnpack/xnnpack_backend.h"

#include "backend/boundary_layout.h"
#include "backend/openmp_wait_settings.h"
#include "backend/xnnpack/compile_partition.h"
#include "backend/xnnpack/support_rules.h"

namespace collage {
namespace {

const std::vector<Layout> kBoundaryLayouts = {Layout::kPlain, Layout::kChannelsLast};

}  // namespace

// The backend's own revision and the Debian XNNPACK snapshot it was written against.
// Version 2: runs end by sending the pool's workers to sleep (xnnpack_executable.cc).
// Version 3: partitions exchange rank-4 tensors in their boundary layout.
std::string XnnpackBackend::version() const { return "3+xnnpack-git20220216"; }

std::vector<LoadTimeSetting> XnnpackBackend::LoadTimeEnvironment() const { return OpenMpWaitSettings(); }

SupportDeclaration XnnpackBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = [](const CallNode& call) { return xnnpack::UnsupportedReason(call).empty(); };
  declaration.boundary_layouts = kBoundaryLayouts;
  return declaration;
}

BackendPerformance XnnpackBackend::Performance() const {
  // Two AVX2 cores: 2 x 3 GHz x 2 FMA x 8 lanes x 2 flops ~ 1.9e11 flops/s peak.
  BackendPerformance performance;
  performance.peak_flops = 1.9e11;
  performance.memory_bandwidth = 2e10;
  performance.launch_overhead = 3e-6;  // setup + invoke + NCHW/NHWC staging of small tensors
  performance.default_efficiency = 0.3;
  performance.op_efficiency = {
      {"nn.conv2d", 0.6},
      {"nn.conv2d_transpose", 0.5},
      {"nn.dense", 0.5},
      {"nn.max_pool2d", 0.3},
      {"nn.avg_pool2d", 0.3},
      {"nn.global_avg_pool2d", 0.3},
      {"nn.global_max_pool2d", 0.3},
      {"add", 0.4},
      {"multiply", 0.4},
      {"subtract", 0.4},
      {"nn.bias_add", 0.4},
      {"nn.relu", 0.5},
      {"clip", 0.5},
      {"sigmoid", 0.3},
      {"nn.softmax", 0.3},
      {"reshape", 1.0},
      {"flatten", 1.0},
  };
  return performance;
}

std::unique_ptr<Executable> XnnpackBackend::Compile(const Function& function, const CompileOptions& options) const {
  DeclaredBoundaryLayoutsOf(function, name(), kBoundaryLayouts);
  return xnnpack::CompilePartition(function, options.threads);
}

}  // namespace collage
