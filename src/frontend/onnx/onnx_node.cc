#include "frontend/onnx/onnx_node.h"

#include "frontend/onnx/onnx_tensor.h"
#include "ir/visitor.h"
#include "support/error.h"

namespace collage {
namespace {

using onnx::AttributeProto;

// The attribute's type; old models may leave `type` unset, then the filled field tells.
AttributeProto::AttributeType EffectiveType(const AttributeProto& attr) {
  if (attr.type() != AttributeProto::UNDEFINED) return attr.type();
  if (attr.has_i()) return AttributeProto::INT;
  if (attr.has_f()) return AttributeProto::FLOAT;
  if (attr.has_s()) return AttributeProto::STRING;
  if (attr.has_t()) return AttributeProto::TENSOR;
  if (attr.has_g()) return AttributeProto::GRAPH;
  if (attr.ints_size() > 0) return AttributeProto::INTS;
  if (attr.floats_size() > 0) return AttributeProto::FLOATS;
  if (attr.strings_size() > 0) return AttributeProto::STRINGS;
  return AttributeProto::UNDEFINED;
}

std::string AttrTypeName(AttributeProto::AttributeType type) {
  return AttributeProto::AttributeType_IsValid(type) ? AttributeProto::AttributeType_Name(type)
                                                     : std::to_string(static_cast<int>(type));
}

std::string InputLabel(size_t index, const std::string& what) {
  return "input " + std::to_string(index) + (what.empty() ? "" : " (" + what + ")");
}

}  // namespace

const Expr& OnnxNode::Input(size_t index, const std::string& what) const {
  if (!HasInput(index)) throw Error("missing required " + InputLabel(index, what));
  return inputs_[index];
}

const TensorTypeNode& OnnxNode::InputType(size_t index) const {
  const Expr& input = Input(index);
  const TensorTypeNode* type = AsTensorType(input->checked_type());
  if (type == nullptr) throw Error(InputLabel(index, "") + " must be a tensor");
  return *type;
}

const Tensor& OnnxNode::ConstantInput(size_t index, const std::string& what) const {
  const Expr& input = Input(index, what);
  const Tensor* value = ConstantValue(input);
  if (value == nullptr) {
    std::vector<std::string> graph_inputs;
    std::string names;
    for (const Expr& expr : PostOrder(input, false)) {
      if (const auto* var = As<VarNode>(expr)) {
        graph_inputs.push_back(var->name_hint);
        names += (names.empty() ? "'" : ", '") + var->name_hint + "'";
      }
    }
    throw GraphInputValuesNeeded(InputLabel(index, what) +
                                     " must be known at import time, but it depends on graph input " + names +
                                     ": give its value with --inputs",
                                 std::move(graph_inputs));
  }
  return *value;
}

std::vector<int64_t> OnnxNode::IntsInput(size_t index, const std::string& what) const {
  const Tensor& value = ConstantInput(index, what);
  if (!IsInteger(value.dtype())) {
    throw Error(InputLabel(index, what) + " must be an integer tensor, got " + std::string(DTypeName(value.dtype())));
  }
  std::vector<int64_t> ints(static_cast<size_t>(value.NumElements()));
  for (int64_t i = 0; i < value.NumElements(); ++i) ints[static_cast<size_t>(i)] = value.GetAsInt64(i);
  return ints;
}

double OnnxNode::ScalarInput(size_t index, const std::string& what) const {
  const Tensor& value = ConstantInput(index, what);
  if (value.NumElements() != 1) {
    throw Error(InputLabel(index, what) + " must hold one element, got shape " + ShapeToString(value.shape()));
  }
  return value.GetAsDouble(0);
}

int64_t OnnxNode::IntScalarInput(size_t index, const std::string& what) const {
  const std::vector<int64_t> values = IntsInput(index, what);
  if (values.size() != 1) {
    throw Error(InputLabel(index, what) + " must hold one element, got " + std::to_string(values.size()));
  }
  return values[0];
}

std::vector<double> OnnxNode::FloatsInput(size_t index, const std::string& what) const {
  const Tensor& value = ConstantInput(index, what);
  std::vector<double> values(static_cast<size_t>(value.NumElements()));
  for (int64_t i = 0; i < value.NumElements(); ++i) values[static_cast<size_t>(i)] = value.GetAsDouble(i);
  return values;
}

const AttributeProto* OnnxNode::FindAttr(const std::string& name) const {
  for (const AttributeProto& attr : proto_.attribute()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

const AttributeProto* OnnxNode::TypedAttr(const std::string& name, AttributeProto::AttributeType type) const {
  const AttributeProto* attr = FindAttr(name);
  if (attr == nullptr) return nullptr;
  const AttributeProto::AttributeType actual = EffectiveType(*attr);
  if (actual != type) {
    throw Error("attribute '" + name + "' must be of type " + AttrTypeName(type) + ", got " + AttrTypeName(actual));
  }
  return attr;
}

int64_t OnnxNode::Int(const std::string& name, int64_t default_value) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::INT);
  return attr == nullptr ? default_value : attr->i();
}

int64_t OnnxNode::RequiredInt(const std::string& name) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::INT);
  if (attr == nullptr) throw Error("missing required attribute '" + name + "'");
  return attr->i();
}

double OnnxNode::Float(const std::string& name, double default_value) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::FLOAT);
  return attr == nullptr ? default_value : static_cast<double>(attr->f());
}

std::string OnnxNode::String(const std::string& name, const std::string& default_value) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::STRING);
  return attr == nullptr ? default_value : attr->s();
}

std::vector<int64_t> OnnxNode::Ints(const std::string& name, std::vector<int64_t> default_value) const {
  std::optional<std::vector<int64_t>> ints = OptionalInts(name);
  return ints ? *ints : default_value;
}

std::optional<std::vector<int64_t>> OnnxNode::OptionalInts(const std::string& name) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::INTS);
  if (attr == nullptr) return std::nullopt;
  return std::vector<int64_t>(attr->ints().begin(), attr->ints().end());
}

std::vector<double> OnnxNode::Floats(const std::string& name, std::vector<double> default_value) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::FLOATS);
  if (attr == nullptr) return default_value;
  return std::vector<double>(attr->floats().begin(), attr->floats().end());
}

std::vector<std::string> OnnxNode::Strings(const std::string& name) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::STRINGS);
  if (attr == nullptr) return {};
  return std::vector<std::string>(attr->strings().begin(), attr->strings().end());
}

const onnx::TensorProto* OnnxNode::TensorAttr(const std::string& name) const {
  const AttributeProto* attr = TypedAttr(name, AttributeProto::TENSOR);
  return attr == nullptr ? nullptr : &attr->t();
}

std::string OnnxNode::FirstPresentAttr(const std::vector<std::string>& names) const {
  for (const AttributeProto& attr : proto_.attribute()) {
    for (const std::string& name : names) {
      if (attr.name() == name) return name;
    }
  }
  return "";
}

std::optional<std::vector<int64_t>> OnnxNode::IntsFromAttrOrInput(const std::string& attr_name,
                                                                  size_t input_index) const {
  if (HasAttr(attr_name)) return Ints(attr_name);
  if (HasInput(input_index)) return IntsInput(input_index, attr_name);
  return std::nullopt;
}

}  // namespace collage
