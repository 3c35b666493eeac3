// One ONNX node under conversion: typed access to its attributes and to its inputs (already
// imported as typed IR expressions), and the builder that converters emit IR with.
//
// Accessors throw Error with a message about the node's own inputs or attributes only
// ("attribute 'pads' must have 4 values, got 3"); the importer prefixes the file, node name,
// op type, domain and opset.
#pragma once

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/onnx/folding_builder.h"
#include "ir/expr.h"
#include "support/error.h"

namespace collage {

// Thrown when an input that must be known at import time (a shape, axes, pads, sizes, ...)
// depends on graph inputs: the importer binds their values when it has them (specialization)
// and imports again, or reports the message, which names the inputs.
class GraphInputValuesNeeded : public Error {
 public:
  GraphInputValuesNeeded(const std::string& message, std::vector<std::string> graph_inputs)
      : Error(message), graph_inputs_(std::move(graph_inputs)) {}
  const std::vector<std::string>& graph_inputs() const { return graph_inputs_; }

 private:
  std::vector<std::string> graph_inputs_;
};

class OnnxNode {
 public:
  // `inputs[i]` is null where input i is absent (an empty name or past the end).
  OnnxNode(const onnx::NodeProto& proto, int64_t opset, std::vector<Expr> inputs, FoldingBuilder& builder)
      : proto_(proto), opset_(opset), inputs_(std::move(inputs)), builder_(builder) {}

  const std::string& op_type() const { return proto_.op_type(); }
  int64_t opset() const { return opset_; }
  FoldingBuilder& builder() { return builder_; }
  size_t num_outputs() const { return static_cast<size_t>(proto_.output_size()); }

  // --- inputs
  size_t num_inputs() const { return inputs_.size(); }
  bool HasInput(size_t index) const { return index < inputs_.size() && inputs_[index] != nullptr; }
  // Throws Error("missing required input <index> (<what>)") when absent.
  const Expr& Input(size_t index, const std::string& what = "") const;
  const TensorTypeNode& InputType(size_t index) const;
  const Shape& InputShape(size_t index) const { return InputType(index).shape; }
  int64_t InputRank(size_t index) const { return static_cast<int64_t>(InputShape(index).size()); }
  // The value of an input that must be known at import time (a weight or a folded shape);
  // throws GraphInputValuesNeeded when it depends on graph inputs.
  const Tensor& ConstantInput(size_t index, const std::string& what) const;
  // A constant integer input (any integer dtype), flattened.
  std::vector<int64_t> IntsInput(size_t index, const std::string& what) const;
  // A constant numeric input holding one element, converted to double.
  double ScalarInput(size_t index, const std::string& what) const;
  // A constant integer input holding one element.
  int64_t IntScalarInput(size_t index, const std::string& what) const;
  // A constant numeric input, flattened and converted to double.
  std::vector<double> FloatsInput(size_t index, const std::string& what) const;

  // --- attributes (absent ones take the default; present ones of another type are errors)
  bool HasAttr(const std::string& name) const { return FindAttr(name) != nullptr; }
  int64_t Int(const std::string& name, int64_t default_value) const;
  int64_t RequiredInt(const std::string& name) const;
  double Float(const std::string& name, double default_value) const;
  std::string String(const std::string& name, const std::string& default_value) const;
  std::vector<int64_t> Ints(const std::string& name, std::vector<int64_t> default_value = {}) const;
  std::optional<std::vector<int64_t>> OptionalInts(const std::string& name) const;
  std::vector<double> Floats(const std::string& name, std::vector<double> default_value = {}) const;
  std::vector<std::string> Strings(const std::string& name) const;
  // A tensor attribute; nullptr when absent.
  const onnx::TensorProto* TensorAttr(const std::string& name) const;
  // The name of the first attribute of the node, in order, among `names`; empty if none.
  std::string FirstPresentAttr(const std::vector<std::string>& names) const;

  // Integers given either by attribute `attr_name` (older opsets) or by constant input
  // `input_index` (newer ones); nullopt when neither is present.
  std::optional<std::vector<int64_t>> IntsFromAttrOrInput(const std::string& attr_name, size_t input_index) const;

 private:
  const onnx::AttributeProto* FindAttr(const std::string& name) const;
  // The attribute, checked to be of `type`; nullptr when absent.
  const onnx::AttributeProto* TypedAttr(const std::string& name, onnx::AttributeProto::AttributeType type) const;

  const onnx::NodeProto& proto_;
  int64_t opset_;
  std::vector<Expr> inputs_;
  FoldingBuilder& builder_;
};

}  // namespace collage
