#include "backend/xnnpack/subgraph_builder.h"

#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/partition_body.h"
#include "backend/xnnpack/support_rules.h"
#include "backend/xnnpack/xnnpack_status.h"
#include "support/error.h"

namespace collage::xnnpack {
namespace {

std::vector<size_t> Dims(const Shape& shape) { return std::vector<size_t>(shape.begin(), shape.end()); }

}  // namespace

SubgraphBuilder::SubgraphBuilder(uint32_t external_value_count, const BiasFusion& fusion,
                                 std::unordered_map<const ExprNode*, uint32_t> result_ids)
    : fusion_(fusion), result_ids_(std::move(result_ids)) {
  CheckStatus(xnn_create_subgraph(external_value_count, 0, &subgraph_), "xnn_create_subgraph");
}

SubgraphBuilder::~SubgraphBuilder() {
  if (subgraph_) xnn_delete_subgraph(subgraph_);
}

void SubgraphBuilder::DefineInput(const ExprNode& value, uint32_t external_id) {
  const std::vector<size_t> dims = Dims(SubgraphShape(AsTensorType(value.checked_type())->shape));
  uint32_t id = XNN_INVALID_VALUE_ID;
  CheckStatus(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), nullptr, external_id,
                                      XNN_VALUE_FLAG_EXTERNAL_INPUT, &id),
              "defining the input " + DescribeExpr(value));
  values_[&value] = id;
}

uint32_t SubgraphBuilder::ValueOf(const Expr& expr) const {
  const auto it = values_.find(ForwardProjections(expr).get());
  if (it == values_.end()) throw Error("xnnpack: internal error: " + DescribeExpr(*expr) + " has no XNNPACK value");
  return it->second;
}

uint32_t SubgraphBuilder::DefineStatic(std::vector<float> data, const Shape& shape) {
  // XNNPACK kernels may read XNN_EXTRA_BYTES past the end of a tensor.
  data.resize(data.size() + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
  static_data_.push_back(std::make_unique<std::vector<float>>(std::move(data)));
  const std::vector<size_t> dims = Dims(shape);
  uint32_t id = XNN_INVALID_VALUE_ID;
  CheckStatus(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(),
                                      static_data_.back()->data(), XNN_INVALID_VALUE_ID, 0, &id),
              "defining a static tensor");
  return id;
}

uint32_t SubgraphBuilder::DefineInternal(const Shape& shape) {
  const std::vector<size_t> dims = Dims(shape);
  uint32_t id = XNN_INVALID_VALUE_ID;
  CheckStatus(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), nullptr,
                                      XNN_INVALID_VALUE_ID, 0, &id),
              "defining an internal tensor");
  return id;
}

uint32_t SubgraphBuilder::DefineResult(const CallNode& call) {
  const auto fused_add = fusion_.add_of_producer.find(&call);
  const ExprNode* represented = fused_add == fusion_.add_of_producer.end() ? &call : fused_add->second;
  const std::vector<size_t> dims = Dims(SubgraphShape(AsTensorType(call.checked_type())->shape));
  const auto result = result_ids_.find(represented);
  const bool external = result != result_ids_.end();
  uint32_t id = XNN_INVALID_VALUE_ID;
  CheckStatus(xnn_define_tensor_value(subgraph_, xnn_datatype_fp32, dims.size(), dims.data(), nullptr,
                                      external ? result->second : XNN_INVALID_VALUE_ID,
                                      external ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT : 0, &id),
              "defining the result of " + DescribeExpr(call));
  values_[represented] = id;
  return id;
}

uint32_t SubgraphBuilder::BroadcastOperand(const Expr& operand, const Shape& ir_view, size_t result_rank) {
  const Shape aligned = PrependOnes(ir_view, result_rank);
  if (const auto* constant = As<ConstantNode>(ForwardProjections(operand))) {
    return DefineStatic(ToSubgraphLayout(constant->data.Reshaped(aligned)), SubgraphShape(aligned));
  }
  const uint32_t value = ValueOf(operand);
  const Shape& own_shape = TensorTypeOf(operand).shape;
  if (own_shape == aligned) return value;
  // Only element-order-preserving reshapes get here (support rules); the operand's own
  // layout equals the IR's since it has rank < 4.
  const Shape target = SubgraphShape(aligned);
  const std::vector<size_t> dims = Dims(target);
  const uint32_t reshaped = DefineInternal(target);
  CheckStatus(xnn_define_static_reshape(subgraph_, dims.size(), dims.data(), value, reshaped, 0),
              "reshaping a broadcast operand");
  return reshaped;
}

const Tensor* SubgraphBuilder::FusedBias(const CallNode& call) const {
  const auto it = fusion_.bias_of_producer.find(&call);
  return it == fusion_.bias_of_producer.end() ? nullptr : &it->second;
}

}  // namespace collage::xnnpack
