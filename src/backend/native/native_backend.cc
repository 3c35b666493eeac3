#include "backend/native/native_backend.h"

#include "backend/boundary_layout.h"
#include "backend/native/execution_planner.h"
#include "backend/native/kernel_cache.h"
#include "backend/openmp_wait_settings.h"
#include "backend/sink_transposes.h"
#include "ir/op_registry.h"
#include "pass/fused_forms/decomposed_forms.h"
#include "support/error.h"

namespace collage {
namespace {

// The generated kernels compute in plain; a channels-last side becomes transposes at the edges.
const std::vector<Layout>& BoundaryLayouts() {
  static const std::vector<Layout> layouts = {Layout::kPlain, Layout::kChannelsLast};
  return layouts;
}

}  // namespace

std::string NativeBackend::version() const {
  // Edits of the generator or the runtime headers reach cost keys through the backend's source
  // hash (tuning's CostVersion); this names what lies outside the source tree.
  std::string version = std::string(native::kGeneratorVersion) + " " + native::CompilerVersion(config_);
  for (const std::string& flag : native::CompilerFlags(config_)) version += " " + flag;
  return version;
}

std::vector<LoadTimeSetting> NativeBackend::LoadTimeEnvironment() const { return OpenMpWaitSettings(); }

SupportDeclaration NativeBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = [](const CallNode&) { return true; };
  declaration.fuses_like_fuse_ops = true;
  declaration.boundary_layouts = BoundaryLayouts();
  // Element-wise forms fuse into one loop anyway; a decomposed layer or RMS norm's reductions, a
  // masked softmax's mask, attention's products and squeeze-and-excitation's pooling and 1x1
  // layers would split them into several kernels.
  for (const char* form_name :
       {"layer_norm", "rms_norm", "squeeze_excitation", "scaled_dot_product_attention", "scaled_masked_softmax"}) {
    const DecomposedForm& form = DecomposedFormNamed(form_name);
    declaration.patterns.push_back({name() + "." + form_name, form.pattern, AcceptsUnder(form, NativeFormConditions())});
  }
  return declaration;
}

const std::vector<std::string>& NativeFusedForms() {
  // Attention before the masked softmax inside it: the rewriter offers matches in this order.
  // Squeeze-and-excitation before the SiLU inside it.
  static const std::vector<std::string> forms = {
      "layer_norm", "rms_norm", "squeeze_excitation", "gelu_erf", "gelu_tanh", "silu", "hard_swish",
      "scaled_dot_product_attention", "scaled_masked_softmax"};
  return forms;
}

const std::map<std::string, MatchPredicate>& NativeFormConditions() {
  // The attention kernel keeps a block of query rows' logits per thread: up to kMaxAttentionKeys keys.
  static const std::map<std::string, MatchPredicate> conditions = {
      {"scaled_dot_product_attention", [](const PatternMatch& match) {
         for (const Expr& expr : match.inside) {
           const auto* call = As<CallNode>(expr);
           if (call == nullptr || call->op() == nullptr || call->op()->name != "nn.softmax") continue;
           const TensorTypeNode* type = AsTensorType(expr->checked_type());
           if (type == nullptr || type->shape.empty() || type->shape.back() > kMaxAttentionKeys) return false;
         }
         return true;
       }}};
  return conditions;
}

BackendPerformance NativeBackend::Performance() const {
  BackendPerformance performance;
  performance.peak_flops = 1e11;        // per core: 2 AVX-512 FMA units at ~3 GHz, derated
  performance.memory_bandwidth = 1e10;  // bytes per second, one socket share
  performance.launch_overhead = 2e-6;
  performance.default_efficiency = 0.3;
  performance.op_efficiency = {{"nn.conv2d", 0.45}, {"nn.dense", 0.5},         {"nn.matmul", 0.5},
                               {"nn.batch_matmul", 0.45}, {"nn.conv2d_transpose", 0.1}};
  return performance;
}

std::unique_ptr<Executable> NativeBackend::Compile(const Function& function, const CompileOptions& options) const {
  std::vector<CompileResult> results = CompileAll({function}, options);
  if (!results[0].executable) throw Error(results[0].error);
  return std::move(results[0].executable);
}

std::vector<CompileResult> NativeBackend::CompileAll(const std::vector<Function>& functions,
                                                     const CompileOptions& options) const {
  std::vector<CompileResult> results(functions.size());
  std::vector<native::PlannedFunction> planned(functions.size());
  std::vector<native::GeneratedKernel> kernels;
  std::vector<std::pair<size_t, size_t>> kernel_owner;  // (function, kernel within it)
  for (size_t f = 0; f < functions.size(); ++f) {
    try {
      // A channels-last boundary becomes transposes that fuse into the first and last kernels,
      // or cancel through element-wise ops; a fused squeeze-and-excitation reads and writes
      // channels-last itself, so the transposes around it cancel once it is formed.
      DeclaredBoundaryLayoutsOf(functions[f], name(), BoundaryLayouts());
      planned[f] = native::PlanFunction(SinkTransposes(FuseDecomposedFormsInPartition(
          WithPlainBody(functions[f]), fuse_decomposed_forms_ ? NativeFusedForms() : std::vector<std::string>{},
          NativeFormConditions())));
    } catch (const Error& error) {
      results[f].error = error.what();
      continue;
    }
    for (size_t k = 0; k < planned[f].kernels.size(); ++k) {
      kernels.push_back(planned[f].kernels[k]);
      kernel_owner.emplace_back(f, k);
    }
  }
  const native::KernelCache cache(options.cache_dir.empty() ? native::DefaultNativeCacheDir() : options.cache_dir + "/native",
                                  config_);
  std::vector<native::LoadedKernel> loaded;
  try {
    loaded = cache.Load(kernels);
  } catch (const Error& error) {
    for (CompileResult& result : results) {
      if (result.error.empty()) result.error = error.what();
    }
    return results;
  }
  for (size_t k = 0; k < loaded.size(); ++k) {
    const auto [f, within] = kernel_owner[k];
    if (!loaded[k].function && results[f].error.empty()) results[f].error = loaded[k].error;
    planned[f].plan.steps[planned[f].kernel_steps[within]].kernel = loaded[k];
  }
  for (size_t f = 0; f < functions.size(); ++f) {
    if (results[f].error.empty()) results[f].executable = native::MakeNativeExecutable(std::move(planned[f].plan), options.threads);
  }
  return results;
}

}  // namespace collage
