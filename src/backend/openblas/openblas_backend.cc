#include "backend/openblas/openblas_backend.h"

#include <cblas.h>

#include "backend/flat_partition.h"
#include "backend/openblas/gemm_executable.h"
#include "backend/openblas/gemm_plan.h"
#include "pattern/pattern_parser.h"

namespace collage {
namespace {

// A product followed by a bias; the bias shape is checked when compiling.
constexpr const char* kPatternTable = R"(
$product := nn.dense(*, *) | nn.matmul(*, *) | nn.batch_matmul(*, *)
openblas.product_bias := nn.bias_add($product:f32, const) | add($product:f32, const)
)";

bool IsF32Product(const CallNode& call) {
  const std::string& op = As<OpNode>(call.callee)->name();
  if (op != "nn.dense" && op != "nn.matmul" && op != "nn.batch_matmul") return false;
  const TensorTypeNode* type = AsTensorType(call.checked_type());
  return type != nullptr && type->dtype == DType::kF32;
}

}  // namespace

// Version 2: its worker threads sleep ~30 us after a call (LoadTimeEnvironment), so a timed
// run after a cool-down now pays for waking them.
std::string OpenblasBackend::version() const { return std::string("2/") + openblas_get_config(); }

// OpenBLAS's worker threads poll (with sched_yield) for 2^28 TSC cycles, ~0.1 s, after each
// call and after the library loads; 2^16 cycles is ~30 us.
std::vector<LoadTimeSetting> OpenblasBackend::LoadTimeEnvironment() const {
  return {{"OPENBLAS_THREAD_TIMEOUT", "16"}};
}

SupportDeclaration OpenblasBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = IsF32Product;
  for (LabelledPattern& entry : ParsePatternTable(kPatternTable, "openblas_backend.cc")) {
    declaration.patterns.push_back({std::move(entry.label), std::move(entry.pattern), {}});
  }
  return declaration;
}

BackendPerformance OpenblasBackend::Performance() const {
  // Two AVX-512 cores at about 60 GFLOP/s each for large sgemm; small products are bound by
  // the per-call overhead and memory traffic.
  BackendPerformance performance;
  performance.peak_flops = 1.2e11;
  performance.memory_bandwidth = 2e10;
  performance.launch_overhead = 2e-6;
  performance.default_efficiency = 0.1;
  performance.op_efficiency = {{"nn.dense", 0.75}, {"nn.matmul", 0.7}, {"nn.batch_matmul", 0.6},
                               {"nn.bias_add", 0.5}, {"add", 0.5}};
  return performance;
}

std::unique_ptr<Executable> OpenblasBackend::Compile(const Function& function, const CompileOptions& options) const {
  FlatPartition partition = FlattenPartition(function, name());
  std::vector<openblas::GemmStep> steps = openblas::PlanGemms(partition);
  return openblas::MakeGemmExecutable(std::move(partition), std::move(steps), options.threads);
}

}  // namespace collage
