// ONNX elementwise ops: activations and unary math, broadcasting binary arithmetic,
// comparisons and logic, variadic Max/Min/Sum/Mean, Clip, Where, Cast, BitShift, the
// pass-through ops Identity and Dropout, and Det (per matrix).
#include <limits>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "frontend/onnx/onnx_tensor.h"

namespace collage {
namespace {

OnnxConverter Unary(const std::string& op_name) {
  return
      [op_name](OnnxNode& node) -> std::vector<Expr> { return {node.builder().Call(op_name, {node.Input(0, "X")})}; };
}

// ONNX requires both operands of a binary op to have one dtype, except Pow, whose exponent
// is converted to the base's dtype here.
OnnxConverter Binary(const std::string& op_name, bool convert_rhs = false) {
  return [op_name, convert_rhs](OnnxNode& node) -> std::vector<Expr> {
    if (node.opset() < 7 && node.Int("broadcast", 0) != 0) {
      throw Error("the legacy attribute 'broadcast' (before opset 7) is not supported");
    }
    const Expr& lhs = node.Input(0, "A");
    Expr rhs = node.Input(1, "B");
    if (convert_rhs) rhs = CastTo(node.builder(), rhs, TensorTypeOf(lhs).dtype);
    return {node.builder().Call(op_name, {lhs, rhs})};
  };
}

// Max, Min, Sum and Mean over one or more broadcasting inputs.
OnnxConverter Variadic(const std::string& op_name, bool average) {
  return [op_name, average](OnnxNode& node) -> std::vector<Expr> {
    Expr result = node.Input(0, "data_0");
    for (size_t i = 1; i < node.num_inputs(); ++i) {
      result = node.builder().Call(op_name, {result, node.Input(i, "data_" + std::to_string(i))});
    }
    if (average && node.num_inputs() > 1) {
      const DType dtype = TensorTypeOf(result).dtype;
      result = node.builder().Call(
          "divide", {result, ScalarConstant(node.builder(), static_cast<double>(node.num_inputs()), dtype)});
    }
    return {result};
  };
}

std::vector<Expr> ConvertBitShift(OnnxNode& node) {
  const std::string direction = node.String("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") {
    throw Error("attribute 'direction' must be LEFT or RIGHT, got '" + direction + "'");
  }
  const Expr& data = node.Input(0, "X");
  const DType dtype = TensorTypeOf(data).dtype;
  if (dtype != DType::kU8 && dtype != DType::kU16 && dtype != DType::kU32 && dtype != DType::kU64) {
    throw Error("input X must be an unsigned integer, got " + std::string(DTypeName(dtype)));
  }
  return {node.builder().Call(direction == "LEFT" ? "left_shift" : "right_shift", {data, node.Input(1, "Y")})};
}

std::vector<Expr> ConvertLeakyRelu(OnnxNode& node) {
  return {node.builder().Call("nn.leaky_relu", {node.Input(0, "X")}, {{"alpha", node.Float("alpha", 0.01)}})};
}

std::vector<Expr> ConvertReciprocal(OnnxNode& node) {
  const Expr& data = node.Input(0, "X");
  return {node.builder().Call("divide", {ScalarConstant(node.builder(), 1.0, TensorTypeOf(data).dtype), data})};
}

// max(0, min(1, alpha * x + beta)).
Expr HardSigmoid(FoldingBuilder& builder, const Expr& data, double alpha, double beta) {
  const DType dtype = TensorTypeOf(data).dtype;
  if (!IsFloatingPoint(dtype)) throw Error("input X must be floating point, got " + std::string(DTypeName(dtype)));
  Expr scaled = builder.Call("multiply", {data, ScalarConstant(builder, alpha, dtype)});
  Expr shifted = builder.Call("add", {scaled, ScalarConstant(builder, beta, dtype)});
  return builder.Call("clip", {shifted}, {{"a_min", 0.0}, {"a_max", 1.0}});
}

std::vector<Expr> ConvertHardSigmoid(OnnxNode& node) {
  return {HardSigmoid(node.builder(), node.Input(0, "X"), node.Float("alpha", 0.2), node.Float("beta", 0.5))};
}

std::vector<Expr> ConvertHardSwish(OnnxNode& node) {
  const Expr& data = node.Input(0, "X");
  return {node.builder().Call("multiply", {data, HardSigmoid(node.builder(), data, 1.0 / 6.0, 0.5)})};
}

// Clip: bounds as attributes (opset < 11) or as optional scalar inputs. Constant bounds give
// one clip; bounds computed at run time give maximum / minimum.
std::vector<Expr> ConvertClip(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  Expr result = node.Input(0, "input");
  const double lowest = std::numeric_limits<float>::lowest();
  const double highest = std::numeric_limits<float>::max();
  if (node.HasAttr("min") || node.HasAttr("max")) {
    return {
        builder.Call("clip", {result}, {{"a_min", node.Float("min", lowest)}, {"a_max", node.Float("max", highest)}})};
  }
  double bounds[2] = {lowest, highest};
  const char* names[2] = {"min", "max"};
  const char* runtime_ops[2] = {"maximum", "minimum"};
  for (size_t i = 0; i < 2; ++i) {
    if (!node.HasInput(i + 1)) continue;
    const Expr& bound = node.Input(i + 1, names[i]);
    if (const Tensor* value = ConstantValue(bound)) {
      if (value->NumElements() != 1) throw Error(std::string("input '") + names[i] + "' must be a scalar");
      bounds[i] = value->GetAsDouble(0);
    } else {
      result = builder.Call(runtime_ops[i], {result, bound});
    }
  }
  if (bounds[0] == lowest && bounds[1] == highest) return {result};
  return {builder.Call("clip", {result}, {{"a_min", bounds[0]}, {"a_max", bounds[1]}})};
}

std::vector<Expr> ConvertWhere(OnnxNode& node) {
  return {node.builder().Call("where", {node.Input(0, "condition"), node.Input(1, "X"), node.Input(2, "Y")})};
}

std::vector<Expr> ConvertCast(OnnxNode& node) {
  const DType dtype = DTypeFromOnnx(static_cast<int32_t>(node.RequiredInt("to")));
  return {CastTo(node.builder(), node.Input(0, "input"), dtype)};
}

std::vector<Expr> ConvertCastLike(OnnxNode& node) {
  return {CastTo(node.builder(), node.Input(0, "input"), TensorTypeOf(node.Input(1, "target_type")).dtype)};
}

std::vector<Expr> ConvertIdentity(OnnxNode& node) { return {node.Input(0, "input")}; }

// Inference: Dropout is the identity and its mask is all true.
std::vector<Expr> ConvertDropout(OnnxNode& node) {
  if (node.opset() < 7 && node.Int("is_test", 0) == 0) {
    throw Error("is_test = 0 (before opset 7) is training mode; only inference is supported");
  }
  if (node.HasInput(2)) {
    const Tensor& training = node.ConstantInput(2, "training_mode");
    if (training.NumElements() == 1 && training.GetAsDouble(0) != 0.0) {
      throw Error("training_mode is true; only inference (training_mode false) is supported");
    }
  }
  const Expr& data = node.Input(0, "data");
  Tensor mask = Tensor::Zeros(DType::kBool, TensorTypeOf(data).shape);
  for (int64_t i = 0; i < mask.NumElements(); ++i) mask.SetFromDouble(i, 1.0);
  return {data, node.builder().Constant(std::move(mask))};
}

}  // namespace

void RegisterElementwiseConverters(OnnxConverterTable& table) {
  const std::pair<const char*, const char*> unary_ops[] = {
      {"Relu", "nn.relu"}, {"Sigmoid", "sigmoid"}, {"Tanh", "tanh"},       {"Erf", "erf"},      {"Exp", "exp"},
      {"Log", "log"},      {"Sqrt", "sqrt"},       {"Abs", "abs"},         {"Neg", "negative"}, {"Floor", "floor"},
      {"Ceil", "ceil"},    {"Round", "round"},     {"Not", "logical_not"}, {"Sign", "sign"},    {"Sin", "sin"},
      {"Cos", "cos"},      {"Tan", "tan"},         {"Asin", "asin"},       {"Acos", "acos"},    {"Atan", "atan"},
      {"Sinh", "sinh"},    {"Cosh", "cosh"},       {"Asinh", "asinh"},     {"Acosh", "acosh"},  {"Atanh", "atanh"},
  };
  for (const auto& [onnx_op, op_name] : unary_ops) table.Add(onnx_op, Unary(op_name));
  const std::pair<const char*, const char*> binary_ops[] = {
      {"Add", "add"},
      {"Sub", "subtract"},
      {"Mul", "multiply"},
      {"Div", "divide"},
      {"Equal", "equal"},
      {"Less", "less"},
      {"LessOrEqual", "less_equal"},
      {"Greater", "greater"},
      {"GreaterOrEqual", "greater_equal"},
      {"And", "logical_and"},
      {"Or", "logical_or"},
      {"Xor", "not_equal"},
  };
  for (const auto& [onnx_op, op_name] : binary_ops) table.Add(onnx_op, Binary(op_name));
  table.Add("Pow", Binary("power", /*convert_rhs=*/true));
  table.Add("BitShift", ConvertBitShift);
  table.Add("Det", Unary("linalg.det"));
  table.Add("Max", Variadic("maximum", false));
  table.Add("Min", Variadic("minimum", false));
  table.Add("Sum", Variadic("add", false));
  table.Add("Mean", Variadic("add", true));
  table.Add("LeakyRelu", ConvertLeakyRelu);
  table.Add("Reciprocal", ConvertReciprocal);
  table.Add("HardSigmoid", ConvertHardSigmoid);
  table.Add("HardSwish", ConvertHardSwish);
  table.Add("Clip", ConvertClip);
  table.Add("Where", ConvertWhere);
  table.Add("Cast", ConvertCast);
  table.Add("CastLike", ConvertCastLike);
  table.Add("Identity", ConvertIdentity);
  table.Add("Dropout", ConvertDropout);
}

}  // namespace collage
