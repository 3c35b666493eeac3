// The graph walk of the ONNX importer: parses the ModelProto, checks the opset, turns
// initializers into constants and graph inputs into parameters, orders the nodes
// topologically (rejecting cycles and dangling inputs), converts the nodes that the graph
// outputs depend on, and assembles @main.
#include "frontend/onnx/onnx_importer.h"

#include <onnx/onnx_pb.h>

#include <climits>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "frontend/onnx/folding_builder.h"
#include "frontend/onnx/onnx_node.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "ir/type_inference.h"
#include "support/error.h"
#include "support/one_line_text.h"

namespace collage {
namespace {

constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 17;
// Graph inputs may not declare more than this many bytes (a guard against absurd shapes).
constexpr int64_t kMaxInputBytes = int64_t{1} << 40;

bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string DomainName(const std::string& domain) { return IsDefaultDomain(domain) ? "ai.onnx" : domain; }

// The version of `domain` that the model imports; -1 when it imports none.
int64_t ImportedOpset(const onnx::ModelProto& model, const std::string& domain) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (IsDefaultDomain(opset.domain()) == IsDefaultDomain(domain) &&
        (IsDefaultDomain(domain) || opset.domain() == domain)) {
      return opset.version();
    }
  }
  return -1;
}

// Asks ImportOnnxBytes to import again with these graph inputs bound to their values.
struct SpecializationRequest {
  std::vector<std::string> graph_inputs;
};

class GraphImporter {
 public:
  GraphImporter(const onnx::ModelProto& model, const std::string& file_name, const OnnxImportOptions& options,
                const std::set<std::string>& specialized)
      : model_(model),
        graph_(model.graph()),
        file_name_(file_name),
        options_(options),
        specialized_(specialized),
        builder_(options.max_folded_bytes) {}

  OnnxModel Import() {
    result_.opset = ImportedOpset(model_, "");
    if (result_.opset < 0) Fail("the model imports no opset of the default domain 'ai.onnx'");
    if (result_.opset < kMinOpset || result_.opset > kMaxOpset) {
      Fail("opset " + std::to_string(result_.opset) + " of domain 'ai.onnx' is not supported (supported: " +
           std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) + ")");
    }
    if (graph_.sparse_initializer_size() > 0) Fail("sparse initializers are not supported");
    ImportInitializers();
    std::vector<Var> params = ImportInputs();
    IndexProducers();
    std::vector<int> order = TopologicalOrder();
    CheckGraphOutputs();
    const std::vector<bool> live = LiveNodes();
    for (int index : order) {
      if (live[static_cast<size_t>(index)]) ConvertNode(index);
    }
    std::vector<Expr> outputs;
    for (const onnx::ValueInfoProto& output : graph_.output()) {
      outputs.push_back(OutputValue(output));
      result_.output_names.push_back(output.name());
    }
    Expr body = outputs.size() == 1 ? outputs[0] : builder_.Tuple(outputs);
    result_.module = Module(MakeFunction(std::move(params), body));
    InferType(result_.module);
    return std::move(result_);
  }

 private:
  // Names in messages come from the file; control characters are escaped to keep one line.
  [[noreturn]] void Fail(const std::string& message) const { throw Error(file_name_ + ": " + OneLineText(message)); }

  // "node 'conv1' (Conv, domain 'ai.onnx', opset 13)"; unnamed nodes are named by position
  // and first output.
  std::string NodeContext(int index) const {
    const onnx::NodeProto& node = graph_.node(index);
    std::string name = "node '" + node.name() + "'";
    if (node.name().empty()) {
      name = "node #" + std::to_string(index);
      if (node.output_size() > 0) name += " (output '" + node.output(0) + "')";
    }
    const int64_t opset = ImportedOpset(model_, node.domain());
    return name + " (" + (node.op_type().empty() ? std::string("<no op type>") : node.op_type()) + ", domain '" +
           DomainName(node.domain()) + "', opset " + (opset < 0 ? std::string("not imported") : std::to_string(opset)) +
           ")";
  }

  [[noreturn]] void FailNode(int index, const std::string& message) const { Fail(NodeContext(index) + ": " + message); }

  void Define(const std::string& name, Expr value, const std::string& what) {
    if (name.empty()) Fail(what + " has an empty name");
    if (!values_.emplace(name, std::move(value)).second) Fail("value '" + name + "' is defined twice (" + what + ")");
  }

  void ImportInitializers() {
    for (const onnx::TensorProto& initializer : graph_.initializer()) {
      const std::string what = "initializer '" + initializer.name() + "'";
      Tensor value;
      try {
        value = TensorFromOnnx(initializer, what, options_.max_folded_bytes);
      } catch (const Error& error) {
        Fail(error.what());
      }
      Define(initializer.name(), builder_.Constant(std::move(value)), what);
    }
  }

  // The declared shape; a symbolic (or unknown) dimension is an error naming the input, the
  // axis and the options that bind it.
  Shape DeclaredShape(const onnx::ValueInfoProto& input) const {
    const std::string what = "graph input '" + input.name() + "'";
    const onnx::TypeProto::Tensor& tensor_type = input.type().tensor_type();
    if (!tensor_type.has_shape()) {
      Fail(what + " has no shape; bind it with --shape " + input.name() + "=1x3x224x224 or give the input with --inputs");
    }
    Shape shape;
    for (int d = 0; d < tensor_type.shape().dim_size(); ++d) {
      const onnx::TensorShapeProto::Dimension& dim = tensor_type.shape().dim(d);
      if (!dim.has_dim_value()) {
        const std::string symbol = dim.has_dim_param() ? "symbolic dimension '" + dim.dim_param() + "'" : "unknown dimension";
        Fail(what + " has the " + symbol + " at axis " + std::to_string(d) + "; bind it with --shape " + input.name() +
             "=" + ExampleShape(tensor_type.shape()) + " or give the input with --inputs");
      }
      shape.push_back(dim.dim_value());
    }
    return shape;
  }

  // A shape bound by --shape or by the value given with --inputs (`source`): of the declared
  // rank, and equal to the declared shape in its static dimensions.
  Shape BoundShape(const onnx::ValueInfoProto& input, const Shape& bound, const std::string& source) {
    const std::string what = "graph input '" + input.name() + "'";
    const onnx::TypeProto::Tensor& tensor_type = input.type().tensor_type();
    if (!tensor_type.has_shape()) {
      shapes_bound_ = true;
      return bound;
    }
    const int rank = tensor_type.shape().dim_size();
    if (rank != static_cast<int>(bound.size())) {
      Fail(what + " has rank " + std::to_string(rank) + " (" + ExampleShape(tensor_type.shape()) + ") but " + source +
           " gives " + ShapeToString(bound));
    }
    for (int d = 0; d < rank; ++d) {
      const onnx::TensorShapeProto::Dimension& dim = tensor_type.shape().dim(d);
      shapes_bound_ = shapes_bound_ || !dim.has_dim_value();
      if (dim.has_dim_value() && dim.dim_value() != bound[static_cast<size_t>(d)]) {
        Fail(what + " has the static extent " + std::to_string(dim.dim_value()) + " at axis " + std::to_string(d) +
             " but " + source + " gives " + ShapeToString(bound));
      }
    }
    return bound;
  }

  // The declared shape with each dynamic dimension shown as 1, e.g. "1x3x224x224".
  static std::string ExampleShape(const onnx::TensorShapeProto& shape) {
    std::string text;
    for (const onnx::TensorShapeProto::Dimension& dim : shape.dim()) {
      text +=
          (text.empty() ? "" : "x") + std::to_string(dim.has_dim_value() && dim.dim_value() > 0 ? dim.dim_value() : 1);
    }
    return text;
  }

  // A graph input with an initializer of the same name: before IR version 4 every initializer
  // is listed as an input, and the initializer is its value; from IR version 4 on, the
  // initializer is the input's default value, which a caller could override. Collage has no
  // overridable parameters, so both import the initializer as a constant; from version 4 on
  // the input is listed in OnnxModel::inputs_with_initializers for the caller to report.
  // Its declared element type and shape, when given, must be the initializer's.
  void ImportInputWithInitializer(const onnx::ValueInfoProto& input, const std::string& what) {
    if (model_.ir_version() >= 4) result_.inputs_with_initializers.push_back(input.name());
    if (!input.type().has_tensor_type()) Fail(what + " is not a tensor");
    const onnx::TypeProto::Tensor& declared = input.type().tensor_type();
    const TensorTypeNode& initializer = TensorTypeOf(values_.at(input.name()));
    if (declared.elem_type() != onnx::TensorProto::UNDEFINED &&
        ImportedDType(declared.elem_type(), what) != initializer.dtype) {
      Fail(what + " is declared " + OnnxTypeName(declared.elem_type()) + " but its initializer is " +
           std::string(DTypeName(initializer.dtype)));
    }
    if (!declared.has_shape()) return;
    bool differs = declared.shape().dim_size() != static_cast<int>(initializer.shape.size());
    for (int d = 0; !differs && d < declared.shape().dim_size(); ++d) {
      const auto& dim = declared.shape().dim(d);
      differs = dim.has_dim_value() && dim.dim_value() != initializer.shape[static_cast<size_t>(d)];
    }
    if (differs) {
      Fail(what + " is declared with shape " + ExampleShape(declared.shape()) + " but its initializer has shape " +
           ShapeToString(initializer.shape));
    }
  }

  DType ImportedDType(int32_t onnx_type, const std::string& what) const {
    try {
      return DTypeFromOnnx(onnx_type);
    } catch (const Error& error) {
      Fail(what + ": " + error.what());
    }
  }

  std::vector<Var> ImportInputs() {
    std::set<std::string> overridden;
    std::map<std::string, int> positions;
    std::vector<Var> params;
    for (int position = 0; position < graph_.input_size(); ++position) {
      const onnx::ValueInfoProto& input = graph_.input(position);
      const std::string what = "graph input '" + input.name() + "'";
      if (const auto [earlier, inserted] = positions.emplace(input.name(), position); !inserted) {
        Fail(what + " is listed twice (graph inputs " + std::to_string(earlier->second) + " and " +
             std::to_string(position) + ")");
      }
      if (values_.count(input.name()) > 0) {
        ImportInputWithInitializer(input, what);
        continue;
      }
      if (!input.type().has_tensor_type()) Fail(what + " is not a tensor");
      const DType dtype = ImportedDType(input.type().tensor_type().elem_type(), what);
      if (specialized_.count(input.name()) > 0) {
        DefineSpecialized(input, dtype);
        continue;
      }
      Shape shape;
      auto override = options_.input_shapes.find(input.name());
      auto value = options_.input_values.find(input.name());
      if (override != options_.input_shapes.end()) {
        shape = BoundShape(input, override->second, "--shape");
        overridden.insert(input.name());
      } else if (value != options_.input_values.end()) {
        shape = BoundShape(input, value->second.shape(), "its value from --inputs");
      } else {
        shape = DeclaredShape(input);
      }
      try {
        CheckedNumElements(shape, static_cast<int64_t>(DTypeSize(dtype)), kMaxInputBytes, what);
      } catch (const Error& error) {
        Fail(error.what());
      }
      Var param = builder_.Variable(input.name(), TensorType(dtype, shape));
      Define(input.name(), param, what);
      params.push_back(param);
      result_.input_names.push_back(input.name());
    }
    for (const auto& [name, shape] : options_.input_shapes) {
      if (overridden.count(name) == 0) {
        std::string inputs;
        for (const std::string& input : result_.input_names) inputs += (inputs.empty() ? "" : ", ") + input;
        Fail("--shape names '" + name +
             "', which is not a graph input (inputs: " + (inputs.empty() ? "none" : inputs) + ")");
      }
    }
    return params;
  }

  // A graph input bound to its given value: a constant of it, checked against the declared
  // element type and static dimensions.
  void DefineSpecialized(const onnx::ValueInfoProto& input, DType dtype) {
    const std::string what = "graph input '" + input.name() + "'";
    const Tensor& value = options_.input_values.at(input.name());
    if (value.dtype() != dtype) {
      Fail(what + " is " + std::string(DTypeName(dtype)) + " but its value from --inputs is " +
           std::string(DTypeName(value.dtype())));
    }
    const onnx::TypeProto::Tensor& tensor_type = input.type().tensor_type();
    if (tensor_type.has_shape()) {
      bool differs = tensor_type.shape().dim_size() != static_cast<int>(value.shape().size());
      for (int d = 0; !differs && d < tensor_type.shape().dim_size(); ++d) {
        const auto& dim = tensor_type.shape().dim(d);
        differs = dim.has_dim_value() && dim.dim_value() != value.shape()[static_cast<size_t>(d)];
      }
      if (differs) {
        Fail(what + " is declared with shape " + ExampleShape(tensor_type.shape()) +
             " but its value from --inputs has shape " + ShapeToString(value.shape()));
      }
    }
    Define(input.name(), builder_.Constant(value), what);
    result_.specialized_inputs.push_back(input.name());
  }

  void IndexProducers() {
    for (int i = 0; i < graph_.node_size(); ++i) {
      for (const std::string& output : graph_.node(i).output()) {
        if (output.empty()) continue;
        if (values_.count(output) > 0) FailNode(i, "output '" + output + "' redefines a graph input or initializer");
        if (!producers_.emplace(output, i).second) {
          FailNode(i, "output '" + output + "' is also produced by " + NodeContext(producers_.at(output)));
        }
      }
    }
  }

  // Kahn's algorithm over all nodes; a node left over lies on a cycle.
  std::vector<int> TopologicalOrder() {
    const size_t count = static_cast<size_t>(graph_.node_size());
    std::vector<int> pending(count, 0);
    std::vector<std::vector<int>> users(count);
    for (int i = 0; i < graph_.node_size(); ++i) {
      for (const std::string& input : graph_.node(i).input()) {
        if (input.empty() || values_.count(input) > 0) continue;
        auto producer = producers_.find(input);
        if (producer == producers_.end()) {
          FailNode(i, "input '" + input + "' is not a graph input, an initializer or an output of any node");
        }
        ++pending[static_cast<size_t>(i)];
        users[static_cast<size_t>(producer->second)].push_back(i);
      }
    }
    std::deque<int> ready;
    for (size_t i = 0; i < count; ++i) {
      if (pending[i] == 0) ready.push_back(static_cast<int>(i));
    }
    std::vector<int> order;
    while (!ready.empty()) {
      const int node = ready.front();
      ready.pop_front();
      order.push_back(node);
      for (int user : users[static_cast<size_t>(node)]) {
        if (--pending[static_cast<size_t>(user)] == 0) ready.push_back(user);
      }
    }
    if (order.size() != count) {
      for (size_t i = 0; i < count; ++i) {
        if (pending[i] > 0) FailNode(static_cast<int>(i), "the graph has a cycle through this node");
      }
    }
    return order;
  }

  void CheckGraphOutputs() const {
    if (graph_.output_size() == 0) Fail("the graph has no outputs");
    for (const onnx::ValueInfoProto& output : graph_.output()) {
      if (values_.count(output.name()) == 0 && producers_.count(output.name()) == 0) {
        Fail("graph output '" + output.name() + "' is not produced by any node, graph input or initializer");
      }
    }
  }

  // The nodes that some graph output depends on.
  std::vector<bool> LiveNodes() const {
    std::vector<bool> live(static_cast<size_t>(graph_.node_size()), false);
    std::vector<std::string> stack;
    for (const onnx::ValueInfoProto& output : graph_.output()) stack.push_back(output.name());
    while (!stack.empty()) {
      const std::string name = stack.back();
      stack.pop_back();
      auto producer = producers_.find(name);
      if (producer == producers_.end() || live[static_cast<size_t>(producer->second)]) continue;
      live[static_cast<size_t>(producer->second)] = true;
      for (const std::string& input : graph_.node(producer->second).input()) {
        if (!input.empty()) stack.push_back(input);
      }
    }
    return live;
  }

  void ConvertNode(int index) {
    const onnx::NodeProto& proto = graph_.node(index);
    if (!IsDefaultDomain(proto.domain()))
      FailNode(index, "unsupported op: only the default domain 'ai.onnx' is supported");
    const OnnxConverter* converter = OnnxConverterTable::Global().Find(proto.op_type());
    if (converter == nullptr) FailNode(index, "unsupported op");
    std::vector<Expr> inputs;
    for (const std::string& name : proto.input()) {
      if (name.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      const Expr& value = values_.at(name);
      if (value == nullptr) {
        FailNode(index, "input '" + name + "' is an output of " + NodeContext(producers_.at(name)) +
                            " that the importer does not produce");
      }
      inputs.push_back(value);
    }
    std::vector<Expr> outputs;
    try {
      OnnxNode node(proto, result_.opset, std::move(inputs), builder_);
      outputs = (*converter)(node);
    } catch (const GraphInputValuesNeeded& needed) {
      RequestSpecialization(index, needed);
    } catch (const Error& error) {
      FailNode(index, error.what());
    } catch (const std::bad_alloc&) {
      FailNode(index, "out of memory");
    } catch (const std::exception& error) {
      FailNode(index, std::string("internal error: ") + error.what());
    }
    if (outputs.size() > static_cast<size_t>(proto.output_size())) {
      outputs.resize(static_cast<size_t>(proto.output_size()));
    }
    for (int i = 0; i < proto.output_size(); ++i) {
      const std::string& name = proto.output(i);
      if (name.empty()) continue;
      values_[name] = static_cast<size_t>(i) < outputs.size() ? outputs[static_cast<size_t>(i)] : nullptr;
    }
  }

  // Asks for an import with the needed graph inputs bound when all their values are given and
  // one of them is not bound yet; else fails with the converter's message.
  [[noreturn]] void RequestSpecialization(int index, const GraphInputValuesNeeded& needed) const {
    bool all_given = !needed.graph_inputs().empty();
    bool some_new = false;
    for (const std::string& name : needed.graph_inputs()) {
      all_given = all_given && options_.input_values.count(name) > 0;
      some_new = some_new || specialized_.count(name) == 0;
    }
    if (all_given && some_new) throw SpecializationRequest{needed.graph_inputs()};
    FailNode(index, needed.what());
  }

  Expr OutputValue(const onnx::ValueInfoProto& output) const {
    auto value = values_.find(output.name());
    if (value == values_.end() || value->second == nullptr) {
      Fail("graph output '" + output.name() + "' is not produced by the import");
    }
    CheckDeclaredOutputType(output, value->second);
    return value->second;
  }

  // A declared element type and static shape must match what the import computed (shapes are
  // not compared when input shapes were bound: the declared ones hold for other shapes).
  void CheckDeclaredOutputType(const onnx::ValueInfoProto& output, const Expr& value) const {
    if (!output.type().has_tensor_type()) return;
    const onnx::TypeProto::Tensor& declared = output.type().tensor_type();
    const TensorTypeNode& actual = TensorTypeOf(value);
    std::string mismatch;
    if (declared.elem_type() != onnx::TensorProto::UNDEFINED) {
      DType dtype;
      try {
        dtype = DTypeFromOnnx(declared.elem_type());
      } catch (const Error& error) {
        Fail("graph output '" + output.name() + "': " + error.what());
      }
      if (dtype != actual.dtype) mismatch = "element type " + std::string(DTypeName(dtype));
    }
    if (declared.has_shape() && !shapes_bound_) {
      bool differs = declared.shape().dim_size() != static_cast<int>(actual.shape.size());
      for (int d = 0; !differs && d < declared.shape().dim_size(); ++d) {
        const auto& dim = declared.shape().dim(d);
        differs = dim.has_dim_value() && dim.dim_value() != actual.shape[static_cast<size_t>(d)];
      }
      if (differs) mismatch += (mismatch.empty() ? "" : " and ") + std::string("a different shape");
    }
    if (!mismatch.empty()) {
      Fail("graph output '" + output.name() + "' is declared with " + mismatch + " than the import computes (" +
           TypeToString(value->checked_type()) + ")");
    }
  }

  const onnx::ModelProto& model_;
  const onnx::GraphProto& graph_;
  const std::string& file_name_;
  const OnnxImportOptions& options_;
  const std::set<std::string>& specialized_;  // graph inputs bound to their input_values
  bool shapes_bound_ = false;                  // a symbolic dimension was bound by the options
  FoldingBuilder builder_;
  std::unordered_map<std::string, Expr> values_;    // null: an output the import does not produce
  std::unordered_map<std::string, int> producers_;  // value name -> node index
  OnnxModel result_;
};

}  // namespace

OnnxModel ImportOnnxBytes(std::span<const std::byte> bytes, const std::string& file_name,
                          const OnnxImportOptions& options) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    throw Error(file_name + ": larger than 2 GiB, which protobuf cannot parse (external data is not supported)");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw Error(file_name + ": not a valid ONNX model (protobuf parsing failed: truncated or corrupt file)");
  }
  if (!model.has_graph()) throw Error(file_name + ": the model has no graph (empty or not an ONNX model)");
  // Each request binds at least one more graph input, so this ends.
  std::set<std::string> specialized;
  for (;;) {
    try {
      return GraphImporter(model, file_name, options, specialized).Import();
    } catch (const SpecializationRequest& request) {
      specialized.insert(request.graph_inputs.begin(), request.graph_inputs.end());
    }
  }
}

OnnxModel ImportOnnxFile(const std::string& path, const OnnxImportOptions& options) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) throw Error(path + ": cannot open the file");
  const std::streamoff size = file.tellg();
  if (size < 0) throw Error(path + ": cannot read the file");
  std::vector<char> contents(static_cast<size_t>(size));
  file.seekg(0);
  if (!file.read(contents.data(), size)) throw Error(path + ": cannot read the file");
  return ImportOnnxBytes(std::as_bytes(std::span<const char>(contents)), path, options);
}

std::pair<std::string, Shape> ParseInputShapeOverride(std::string_view text) {
  const size_t equals = text.rfind('=');
  const std::string quoted = "'" + std::string(text) + "'";
  if (equals == std::string_view::npos || equals == 0) {
    throw Error("--shape " + quoted + ": expected NAME=DIMS such as input=1x3x224x224");
  }
  std::string name(text.substr(0, equals));
  std::string_view dims = text.substr(equals + 1);
  Shape shape;
  size_t position = 0;
  while (position < dims.size()) {
    size_t end = dims.find_first_of("x,", position);
    if (end == std::string_view::npos) end = dims.size();
    const std::string_view token = dims.substr(position, end - position);
    int64_t value = 0;
    bool valid = !token.empty() && token.size() <= 12;
    for (char c : token) {
      valid = valid && c >= '0' && c <= '9';
      value = value * 10 + (c - '0');
    }
    if (!valid) {
      throw Error("--shape " + quoted + ": dimension '" + std::string(token) +
                  "' is not a non-negative integer (expected NAME=1x3x224x224)");
    }
    shape.push_back(value);
    position = end + 1;
    if (end + 1 == dims.size()) throw Error("--shape " + quoted + ": trailing separator");
  }
  return {std::move(name), std::move(shape)};
}

std::vector<std::string> SupportedOnnxOps() { return OnnxConverterTable::Global().OpTypes(); }

}  // namespace collage
