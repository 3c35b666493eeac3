#include "onnx_node_suite/node_test_case.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "backend/backend.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/onnx/onnx_tensor.h"
#include "interpreter/interpreter.h"
#include "pass/standard_passes.h"
#include "runtime/compare.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"
#include "support/error.h"

namespace collage::node_suite {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxTestTensorBytes = int64_t{1} << 30;
// Floating outputs pass under the repository's comparison rule (runtime/compare.h) with an error
// of up to kRelative of the output's largest magnitude: ONNX's own suite uses a relative
// tolerance of 1e-3, its expected outputs come from float64 computations, and the error scales
// with the output so that tiny elements of a large output do not fail on rounding.
constexpr double kRelative = 1e-3;

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// input_0.pb, input_1.pb, ... (or output_N.pb) of the first data set, in numeric order.
std::vector<NamedTensor> ReadTensors(const fs::path& data_set, const std::string& prefix) {
  std::vector<NamedTensor> tensors;
  for (int index = 0;; ++index) {
    const fs::path path = data_set / (prefix + "_" + std::to_string(index) + ".pb");
    if (!fs::exists(path)) break;
    std::ifstream file(path, std::ios::binary);
    std::ostringstream contents;
    contents << file.rdbuf();
    onnx::TensorProto proto;
    if (!file || !proto.ParseFromString(contents.str())) {
      throw Error(path.string() + ": not a TensorProto (sequence, map and optional test data are not supported)");
    }
    tensors.push_back({proto.name(), TensorFromOnnx(proto, path.filename().string(), kMaxTestTensorBytes)});
  }
  return tensors;
}

Tolerance ToleranceFor(const Tensor& expected) {
  if (!IsFloatingPoint(expected.dtype())) return Tolerance{0.0};
  return Tolerance{std::max(kRelative, DefaultTolerance(expected.dtype()).relative)};
}

// Empty when `actual` matches `expected` output by output; else what differs.
std::string Mismatch(const Value& actual, const std::vector<NamedTensor>& expected) {
  const std::vector<Tensor> tensors = actual.Flatten();
  if (tensors.size() != expected.size()) {
    return std::to_string(tensors.size()) + " outputs, expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& want = expected[i].tensor;
    const Tensor& got = tensors[i];
    const std::string what = "output " + std::to_string(i) + " ('" + expected[i].name + "')";
    if (got.dtype() != want.dtype() || got.shape() != want.shape()) {
      return what + " is " + TypeToString(TensorType(got.dtype(), got.shape())) + ", expected " +
             TypeToString(TensorType(want.dtype(), want.shape()));
    }
    const Comparison comparison = CompareValues(Value(got), Value(want), ToleranceFor(want));
    if (!comparison.ok()) {
      return what + ": " + std::to_string(comparison.mismatches) + " elements differ; first: " +
             comparison.first_mismatch;
    }
  }
  return "";
}

// One argument per parameter of @main: the test input of the same name, else the one at the
// same position among the inputs that are not initializers.
std::vector<Value> Arguments(const OnnxModel& model, const std::vector<NamedTensor>& inputs) {
  std::vector<Value> arguments;
  for (size_t i = 0; i < model.input_names.size(); ++i) {
    const std::string& name = model.input_names[i];
    auto named = std::find_if(inputs.begin(), inputs.end(), [&](const NamedTensor& input) { return input.name == name; });
    if (named == inputs.end()) {
      if (i >= inputs.size()) throw Error("the test data has no value for graph input '" + name + "'");
      named = inputs.begin() + static_cast<std::ptrdiff_t>(i);
    }
    arguments.emplace_back(named->tensor);
  }
  return arguments;
}

// The kind of a value type that is not a tensor ("sequence", ...); empty for a tensor.
std::string NonTensorKind(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: return "";
    case onnx::TypeProto::kSequenceType: return "a sequence";
    case onnx::TypeProto::kMapType: return "a map";
    case onnx::TypeProto::kOptionalType: return "an optional";
    case onnx::TypeProto::kSparseTensorType: return "a sparse tensor";
    default: return "of no known type";
  }
}

// Throws Error naming the first graph input or output that is not a tensor, which the test
// data then holds in a protobuf other than TensorProto.
void ExpectTensorsOnly(const onnx::ModelProto& model) {
  for (const auto* values : {&model.graph().input(), &model.graph().output()}) {
    for (const onnx::ValueInfoProto& value : *values) {
      const std::string kind = NonTensorKind(value.type());
      if (!kind.empty()) {
        throw Error("graph " + std::string(values == &model.graph().input() ? "input" : "output") + " '" +
                    value.name() + "' is " + kind + " (sequence, map and optional values are not supported)");
      }
    }
  }
}

// The test data of older ONNX releases stores BFLOAT16 tensors as UINT16 bits; each u16 tensor
// whose graph value (by name, else by position) is declared BFLOAT16 is read as those bf16 bits.
void ReadBFloat16StoredAsUInt16(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& declared,
                                std::vector<NamedTensor>& tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].tensor.dtype() != DType::kU16) continue;
    auto named = std::find_if(declared.begin(), declared.end(),
                              [&](const onnx::ValueInfoProto& value) { return value.name() == tensors[i].name; });
    if (named == declared.end() && i < static_cast<size_t>(declared.size())) named = declared.begin() + static_cast<int>(i);
    if (named == declared.end() || named->type().tensor_type().elem_type() != onnx::TensorProto::BFLOAT16) continue;
    Tensor bits = Tensor::Zeros(DType::kBF16, tensors[i].tensor.shape());
    if (bits.NumBytes() > 0) std::memcpy(bits.raw_data(), tensors[i].tensor.raw_data(), bits.NumBytes());
    tensors[i].tensor = bits;
  }
}

onnx::ModelProto ReadModelProto(const fs::path& model_path) {
  onnx::ModelProto model;
  std::ifstream file(model_path, std::ios::binary);
  if (!file || !model.ParseFromIstream(&file)) return onnx::ModelProto();  // the importer reports it
  return model;
}

CaseOutcome Refused(const std::string& reason) { return {CaseOutcome::Kind::kRefused, reason}; }
CaseOutcome Wrong(const std::string& reason) { return {CaseOutcome::Kind::kWrong, reason}; }

}  // namespace

std::vector<std::string> GreedyBackendsForSuite() {
  std::vector<std::string> first;
  std::vector<std::string> last;
  for (const BackendPtr& backend : BackendRegistry::Global().All()) {
    if (backend->device() != Device::kCpu || backend->kind() == BackendKind::kInterpreter) continue;
    (backend->kind() == BackendKind::kCodeGenerator ? last : first).push_back(backend->name());
  }
  first.insert(first.end(), last.begin(), last.end());
  return first;
}

CaseOutcome RunNodeTestCase(const std::string& folder, const CaseOptions& options) {
  const fs::path root(folder);
  const fs::path data_set = root / "test_data_set_0";
  OnnxModel model;
  std::vector<NamedTensor> inputs;
  std::vector<NamedTensor> expected;
  std::vector<Value> arguments;
  try {
    const onnx::ModelProto proto = ReadModelProto(root / "model.onnx");
    ExpectTensorsOnly(proto);
    inputs = ReadTensors(data_set, "input");
    expected = ReadTensors(data_set, "output");
    ReadBFloat16StoredAsUInt16(proto.graph().input(), inputs);
    ReadBFloat16StoredAsUInt16(proto.graph().output(), expected);
    OnnxImportOptions import_options;
    for (const NamedTensor& input : inputs) {
      if (!input.name.empty()) import_options.input_values.emplace(input.name, input.tensor);
    }
    model = ImportOnnxFile((root / "model.onnx").string(), import_options);
    arguments = Arguments(model, inputs);
  } catch (const Error& error) {
    return Refused(error.what());
  }

  Value reference;
  try {
    reference = Evaluate(model.module.main(), arguments);
  } catch (const Error& error) {
    return Refused(std::string("reference interpreter: ") + error.what());
  }
  if (std::string mismatch = Mismatch(reference, expected); !mismatch.empty()) {
    return Wrong("reference interpreter: " + mismatch);
  }

  Value placed;
  try {
    const BackendRegistry& registry = BackendRegistry::Global();
    ExecutorOptions executor_options;
    executor_options.compile.threads = options.threads;
    Executor executor(PlaceGreedy(StandardPipeline()(model.module), options.backends, registry), registry,
                      executor_options);
    placed = executor.Run(arguments);
  } catch (const Error& error) {
    return Wrong(std::string("greedy placement failed: ") + error.what());
  }
  if (std::string mismatch = Mismatch(placed, expected); !mismatch.empty()) {
    return Wrong("greedy placement: " + mismatch);
  }
  return {CaseOutcome::Kind::kPass, ""};
}

const char* OutcomeKindName(CaseOutcome::Kind kind) {
  switch (kind) {
    case CaseOutcome::Kind::kPass:
      return "pass";
    case CaseOutcome::Kind::kRefused:
      return "refused";
    case CaseOutcome::Kind::kWrong:
      return "wrong";
  }
  return "?";
}

std::string EncodeOutcome(const CaseOutcome& outcome) {
  std::string reason = outcome.reason;
  std::replace(reason.begin(), reason.end(), '\n', ' ');
  return std::string(OutcomeKindName(outcome.kind)) + "\t" + reason;
}

CaseOutcome DecodeOutcome(const std::string& line) {
  const size_t tab = line.find('\t');
  const std::string kind = line.substr(0, tab);
  const std::string reason = tab == std::string::npos ? "" : line.substr(tab + 1);
  for (CaseOutcome::Kind candidate : {CaseOutcome::Kind::kPass, CaseOutcome::Kind::kRefused, CaseOutcome::Kind::kWrong}) {
    if (kind == OutcomeKindName(candidate)) return {candidate, reason};
  }
  throw Error("unreadable outcome from the isolated test: '" + line.substr(0, 200) + "'");
}

}  // namespace collage::node_suite
