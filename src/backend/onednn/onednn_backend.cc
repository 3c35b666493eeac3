#include "backend/onednn/onednn_backend.h"

#include <omp.h>

#include <algorithm>
#include <oneapi/dnnl/dnnl.hpp>

#include "backend/flat_partition.h"
#include "backend/openmp_wait_settings.h"
#include "backend/onednn/onednn_executable.h"
#include "backend/onednn/kernel_probe.h"
#include "backend/onednn/op_families.h"
#include "backend/onednn/partition_lowering.h"
#include "backend/onednn/pattern_table.h"
#include "pass/fused_forms/decomposed_forms.h"

namespace collage {
namespace {

const dnnl::engine& CpuEngine() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// The layout its convolutions compute in on this CPU (see ConvolutionPreferredLayout), or none.
std::optional<Layout> PreferredLayout() {
  static const std::optional<Layout> layout = []() -> std::optional<Layout> {
    try {
      return onednn::ConvolutionPreferredLayout(CpuEngine());
    } catch (const dnnl::error&) {
      return std::nullopt;  // no optimized convolution here
    }
  }();
  return layout;
}

// Plain, channels-last, and the channel-blocked layout its convolutions compute in on this
// CPU, so that consecutive oneDNN partitions hand over activations without reordering them.
const std::vector<Layout>& BoundaryLayouts() {
  static const std::vector<Layout> layouts = [] {
    std::vector<Layout> result = {Layout::kPlain, Layout::kChannelsLast};
    const std::optional<Layout> preferred = PreferredLayout();
    if (preferred && ChannelBlock(*preferred) > 0) result.push_back(*preferred);
    return result;
  }();
  return layouts;
}

// Partitions that read plain tensors and leave them in the convolutions' layout, and back: a
// model's first convolutions hand their activations to partitions in that layout, and its last
// ones to plain code, without a conversion step in between.
const std::vector<PartitionLayouts>& MixedBoundaryLayouts() {
  static const std::vector<PartitionLayouts> mixed = [] {
    std::vector<PartitionLayouts> result;
    if (const std::optional<Layout> preferred = PreferredLayout()) {
      result.push_back({Layout::kPlain, *preferred});
      result.push_back({*preferred, Layout::kPlain});
    }
    return result;
  }();
  return mixed;
}

bool IsF32(const Type& type) {
  const TensorTypeNode* tensor = AsTensorType(type);
  return tensor != nullptr && tensor->dtype == DType::kF32;
}

// A binary call (other than nn.bias_add, whose bias always broadcasts) whose operands' shapes
// oneDNN's binary primitive takes.
bool BinaryOperandsFit(const CallNode& call) {
  const std::string& op = As<OpNode>(call.callee)->name();
  if (op == "nn.bias_add" || call.args.size() != 2) return true;
  const TensorTypeNode* first = AsTensorType(call.args[0]->checked_type());
  const TensorTypeNode* second = AsTensorType(call.args[1]->checked_type());
  const TensorTypeNode* result = AsTensorType(call.checked_type());
  return first && second && result && onednn::BinaryOperandsFit(op, first->shape, second->shape, result->shape);
}

// Whether oneDNN runs the call with an optimized kernel where its kernel choice depends on
// shapes or attributes: binary broadcasts, softmax axes, dilated pooling.
bool RunsOptimized(const CallNode& call, onednn::OpFamily family) {
  const std::string& op = As<OpNode>(call.callee)->name();
  const TensorTypeNode* result = AsTensorType(call.checked_type());
  if (result == nullptr) return false;
  if (family == onednn::OpFamily::kBinary && op != "nn.bias_add" && call.args.size() == 2) {
    const TensorTypeNode* first = AsTensorType(call.args[0]->checked_type());
    const TensorTypeNode* second = AsTensorType(call.args[1]->checked_type());
    if (first == nullptr || second == nullptr) return false;
    if (first->shape == result->shape && second->shape == result->shape) return true;
    const std::optional<dnnl::algorithm> algorithm = onednn::BinaryAlgorithm(op);
    if (!algorithm) return false;
    // The lowering puts the operand of the result's shape first.
    const bool swap = onednn::WithLeadingOnes(first->shape, result->shape.size()) != result->shape;
    return onednn::PlainBinaryIsOptimized(*algorithm, swap ? second->shape : first->shape,
                                          swap ? first->shape : second->shape, result->shape, CpuEngine());
  }
  if (op == "nn.softmax" || op == "nn.log_softmax") {
    const int64_t rank = static_cast<int64_t>(result->shape.size());
    int64_t axis = call.attrs.GetInt("axis");
    if (axis < 0) axis += rank;
    return onednn::PlainSoftmaxIsOptimized(op == "nn.log_softmax", result->shape, axis, CpuEngine());
  }
  if (call.attrs.Has("dilation")) {
    for (int64_t dilation : call.attrs.GetInts("dilation")) {
      if (dilation != 1 && family != onednn::OpFamily::kConvolution) return false;
    }
  }
  return true;
}

// An op call of a supported family on f32 tensors (tuple arguments: their fields), binary
// calls with operands the binary primitive broadcasts, and only where an optimized kernel
// runs it.
bool SupportsCall(const CallNode& call) {
  const std::optional<onednn::OpFamily> family = onednn::FamilyOf(As<OpNode>(call.callee)->name());
  if (!family || !IsF32(call.checked_type())) return false;
  if (*family == onednn::OpFamily::kBinary && !BinaryOperandsFit(call)) return false;
  if (!RunsOptimized(call, *family)) return false;
  for (const Expr& arg : call.args) {
    if (const auto* tuple = As<TupleNode>(arg)) {
      for (const Expr& field : tuple->fields) {
        if (!IsF32(field->checked_type())) return false;
      }
    } else if (!IsF32(arg->checked_type())) {
      return false;
    }
  }
  return true;
}

// The reduced precisions the lowering computes in (int8; bf16 not yet) that this machine runs
// without a reference kernel, probed once.
const std::vector<DType>& DeclaredPrecisions() {
  static const std::vector<DType> precisions = [] {
    std::vector<DType> found;
    if (onednn::ReducedPrecisionIsOptimized(dnnl::memory::data_type::s8, CpuEngine())) found.push_back(DType::kI8);
    return found;
  }();
  return precisions;
}

// int8: convolutions without groups and dense products, with constant weights (the lowering
// quantizes a product's activation where it is a partition parameter). No bf16 lowering yet.
bool SupportsPrecision(const CallNode& call, DType precision) {
  if (precision != DType::kI8 || !SupportsCall(call) || call.args.size() < 2) return false;
  const std::string& op = As<OpNode>(call.callee)->name();
  const bool constant_weights = call.args[1]->kind() == ExprKind::kConstant;
  if (op == "nn.conv2d") return constant_weights && call.attrs.GetInt("groups") == 1;
  return op == "nn.dense" && constant_weights;
}

}  // namespace

std::string OnednnBackend::version() const {
  const dnnl_version_t* library = dnnl::version();
  return "3/oneDNN " + std::to_string(library->major) + "." + std::to_string(library->minor) + "." +
         std::to_string(library->patch);
}

// oneDNN runs on libgomp's threads.
std::vector<LoadTimeSetting> OnednnBackend::LoadTimeEnvironment() const { return OpenMpWaitSettings(); }

SupportDeclaration OnednnBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = SupportsCall;
  declaration.patterns = onednn::PatternTable();
  declaration.boundary_layouts = BoundaryLayouts();
  declaration.mixed_boundary_layouts = MixedBoundaryLayouts();
  declaration.reduced_precisions = DeclaredPrecisions();
  declaration.supports_precision = SupportsPrecision;
  return declaration;
}

BackendPerformance OnednnBackend::Performance() const {
  // Two AVX-512 cores: about 120 GFLOP/s at peak; convolutions and products with blocked
  // layouts reach most of it, memory-bound ops are limited by bandwidth.
  BackendPerformance performance;
  performance.peak_flops = 1.2e11;
  performance.memory_bandwidth = 2e10;
  performance.launch_overhead = 3e-6;
  performance.default_efficiency = 0.3;
  performance.op_efficiency = {
      {"nn.conv2d", 0.75},       {"nn.dense", 0.7},      {"nn.matmul", 0.65},    {"nn.batch_matmul", 0.6},
      {"nn.conv2d_transpose", 0.4},
      {"nn.max_pool2d", 0.5},    {"nn.avg_pool2d", 0.5}, {"nn.softmax", 0.4},    {"nn.layer_norm", 0.4},
      {"nn.batch_norm", 0.5},    {"concatenate", 0.5},   {"reshape", 1.0},       {"flatten", 1.0},
  };
  return performance;
}

std::unique_ptr<Executable> OnednnBackend::Compile(const Function& function, const CompileOptions& options) const {
  // Implementations are chosen for the thread count they will run with.
  omp_set_num_threads(std::max(options.threads, 1));
  try {
    const Function fused = FuseDecomposedFormsInPartition(function, onednn::FusedForms());
    onednn::Program program =
        onednn::LowerPartition(FlattenPartition(fused, name(), BoundaryLayouts(), MixedBoundaryLayouts(), DeclaredPrecisions()), CpuEngine());
    return onednn::MakeExecutable(std::move(program), CpuEngine(), options.threads);
  } catch (const dnnl::error& error) {
    throw Error(std::string("onednn: no oneDNN implementation: ") + error.what());
  }
}

}  // namespace collage
