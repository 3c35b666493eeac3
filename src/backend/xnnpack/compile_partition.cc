#include "backend/xnnpack/compile_partition.h"

#include <algorithm>
#include <unordered_map>

#include "backend/boundary_layout.h"
#include "backend/xnnpack/bias_fusion.h"
#include "backend/xnnpack/op_table.h"
#include "backend/xnnpack/partition_body.h"
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

// The source of each flattened result. Computed results get the external value ids after the
// parameters' (recorded in `result_ids`); repeats, parameters and constants are host copies.
std::vector<OutputSource> PlanOutputs(const Function& function, const std::vector<Expr>& results,
                                      std::unordered_map<const ExprNode*, uint32_t>& result_ids) {
  std::vector<OutputSource> outputs;
  uint32_t next_id = static_cast<uint32_t>(function->params.size());
  std::unordered_map<const ExprNode*, size_t> first_output;
  for (const Expr& result : results) {
    OutputSource source;
    source.shape = AsTensorType(result->checked_type())->shape;
    if (const auto* constant = As<ConstantNode>(result)) {
      source.kind = OutputSource::Kind::kConstant;
      source.constant = constant->data;
    } else if (As<VarNode>(result)) {
      source.kind = OutputSource::Kind::kParameter;
      const auto param = std::find_if(function->params.begin(), function->params.end(),
                                      [&](const Var& p) { return p.get() == result.get(); });
      source.index = static_cast<size_t>(param - function->params.begin());
    } else if (const auto seen = first_output.find(result.get()); seen != first_output.end()) {
      source.kind = OutputSource::Kind::kSameAs;
      source.index = seen->second;
    } else {
      source.external_id = next_id++;
      result_ids[result.get()] = source.external_id;
      first_output[result.get()] = outputs.size();
    }
    outputs.push_back(std::move(source));
  }
  return outputs;
}

void DefineNodes(SubgraphBuilder& builder, const std::vector<Expr>& post_order, const BiasFusion& fusion) {
  for (const Expr& expr : post_order) {
    const auto* call = As<CallNode>(expr);
    if (!call || fusion.add_of_producer.count(call)) continue;  // a fused producer is defined at its add
    const auto fused = fusion.producer_of_add.find(call);
    const CallNode& defined = fused == fusion.producer_of_add.end() ? *call : *fused->second;
    FindOp(defined.op()->name)->define(builder, defined);
  }
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

  std::unordered_map<const ExprNode*, uint32_t> result_ids;
  std::vector<OutputSource> outputs = PlanOutputs(function, results, result_ids);
  SubgraphBuilder builder(static_cast<uint32_t>(function->params.size() + result_ids.size()), fusion, result_ids);
  for (size_t i = 0; i < function->params.size(); ++i)
    builder.DefineInput(*function->params[i], static_cast<uint32_t>(i));
  DefineNodes(builder, post_order, fusion);

  ThreadPool pool = SharedThreadPool(std::max(threads, 1));
  xnn_runtime_t runtime = nullptr;
  // The yield flag matters only where XNNPACK runs on libpthreadpool's workers
  // (openmp_thread_pool.h): they then sleep after each run instead of polling.
  CheckStatus(xnn_create_runtime_v2(builder.subgraph(), pool.get(), XNN_FLAG_YIELD_WORKERS, &runtime),
              "xnn_create_runtime_v2");
  return std::make_unique<XnnpackExecutable>(std::move(pool), builder.TakeStaticData(), Runtime(runtime),
                                             std::move(input_shapes), std::move(outputs), BoundaryLayoutsOf(function).parameters);
}

}  // namespace collage::xnnpack
