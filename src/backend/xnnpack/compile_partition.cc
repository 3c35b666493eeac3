#include "backend/xnnpack/compile_partition.h"

#include <algorithm>
#include <unordered_map>

#include "backend/boundary_layout.h"
#include "backend/xnnpack/bias_fusion.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/partition_steps.h"
#include "backend/xnnpack/subgraph_builder.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_executable.h"
#include "backend/xnnpack/xnnpack_status.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "support/error.h"

namespace collage::xnnpack {
namespace {

std::vector<Shape> CheckParameters(const Function& function) {
  std::vector<Shape> shapes;
  for (const Var& param : function->params) {
    const TensorTypeNode* type = AsTensorType(param->checked_type());
    if (!type || type->dtype != DType::kF32 || type->shape.empty() || type->shape.size() > 4) {
      throw Error("xnnpack: parameter %" + param->name_hint + " is not an f32 tensor of rank 1 to 4");
    }
    shapes.push_back(type->shape);
  }
  return shapes;
}

// Every call must be supported; tuples and projections only route values.
void CheckBody(const std::vector<Expr>& post_order) {
  for (const Expr& expr : post_order) {
    if (const auto* call = As<CallNode>(expr)) {
      if (std::string reason = UnsupportedReason(*call); !reason.empty()) throw Error("xnnpack: " + reason);
    } else if (const auto* projection = As<TupleGetItemNode>(expr)) {
      if (!As<TupleNode>(ForwardProjections(projection->tuple))) {
        throw Error("xnnpack: only projections of tuples built inside the partition are supported");
      }
    }
  }
}

void DefineNodes(SubgraphBuilder& builder, const std::vector<const CallNode*>& calls, const BiasFusion& fusion) {
  for (const CallNode* call : calls) {
    const auto fused = fusion.producer_of_add.find(call);
    const CallNode& defined = fused == fusion.producer_of_add.end() ? *call : *fused->second;
    FindOp(defined.op()->name)->define(builder, defined);
  }
}

// The runtime of `step`, its static data added to `static_data`.
CompiledStep CompileRuntimeStep(const RuntimeStep& step, const BiasFusion& fusion, const ThreadPool& pool,
                                StaticData& static_data) {
  CompiledStep compiled;
  std::unordered_map<const ExprNode*, uint32_t> output_ids;
  const auto external_count = static_cast<uint32_t>(step.inputs.size() + step.outputs.size());
  for (size_t k = 0; k < step.outputs.size(); ++k) {
    output_ids[step.outputs[k].first] = static_cast<uint32_t>(step.inputs.size() + k);
  }
  SubgraphBuilder builder(external_count, fusion, output_ids);
  for (size_t k = 0; k < step.inputs.size(); ++k) {
    builder.DefineInput(*step.inputs[k].first, static_cast<uint32_t>(k));
    compiled.externals.emplace_back(static_cast<uint32_t>(k), step.inputs[k].second);
  }
  for (size_t k = 0; k < step.outputs.size(); ++k) {
    compiled.externals.emplace_back(static_cast<uint32_t>(step.inputs.size() + k), step.outputs[k].second);
  }
  DefineNodes(builder, step.calls, fusion);
  xnn_runtime_t runtime = nullptr;
  // The yield flag matters only where XNNPACK runs on libpthreadpool's workers
  // (openmp_thread_pool.h): they then sleep after each run instead of polling.
  CheckStatus(xnn_create_runtime_v2(builder.subgraph(), pool.get(), XNN_FLAG_YIELD_WORKERS, &runtime),
              "xnn_create_runtime_v2");
  compiled.runtime = Runtime(runtime);
  for (auto& data : builder.TakeStaticData()) static_data.push_back(std::move(data));
  return compiled;
}

}  // namespace

std::unique_ptr<Executable> CompilePartition(const Function& function, int threads) {
  EnsureInitialized();
  if (!function->body->checked_type()) InferType(function);
  const std::vector<Expr> post_order = PostOrder(function->body, /*enter_functions=*/false);
  CheckBody(post_order);  // first: an op's reason says more than its parameter's type
  std::vector<Shape> input_shapes = CheckParameters(function);
  const std::vector<Expr> results = FlattenResults(function->body);
  const BiasFusion fusion = PlanBiasFusion(post_order, CountUses(post_order, results));
  PartitionSteps plan = PlanPartitionSteps(function, post_order, results, fusion);

  threads = std::max(threads, 1);
  ThreadPool pool = SharedThreadPool(threads);
  StaticData static_data;
  std::vector<CompiledStep> steps;
  for (const PartitionStep& step : plan.steps) {
    if (step.is_host) {
      CompiledStep host;
      host.host = step.host;
      steps.push_back(std::move(host));
    } else {
      steps.push_back(CompileRuntimeStep(step.runtime, fusion, pool, static_data));
    }
  }
  return std::make_unique<XnnpackExecutable>(std::move(pool), std::move(static_data), std::move(steps),
                                             std::move(plan.scratch_elements), std::move(input_shapes),
                                             std::move(plan.outputs), BoundaryLayoutsOf(function).parameters, threads);
}

}  // namespace collage::xnnpack
