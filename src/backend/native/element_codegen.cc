#include "backend/native/element_codegen.h"

#include <map>
#include <numeric>

#include "backend/native/index_expr.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/resize_taps.h"
#include "op/slice_range.h"
#include "support/error.h"

namespace collage::native {
namespace {

const TensorTypeNode& TensorTypeOf(const Expr& expr) {
  const TensorTypeNode* type = AsTensorType(expr->checked_type());
  Check(type != nullptr, "native: expected a tensor-typed argument");
  return *type;
}

// What an element emitter sees: the call, the output field, its type and the arguments.
struct ElementCall {
  const CallNode& call;
  int field;
  const TensorTypeNode& result;
  const ArgumentValue& argument;

  const TensorTypeNode& ArgType(size_t arg) const { return TensorTypeOf(call.args[arg]); }
  bool IsFloat() const { return ArgType(0).dtype == DType::kF32; }
  // Argument `arg` read at the index that broadcasts it to the result shape.
  std::string Broadcast(size_t arg) const {
    return argument(arg, BroadcastIndexExpr(ArgType(arg).shape, result.shape, "i"));
  }
  std::string Return(const std::string& value) const { return "return " + value + ";"; }
};

using ElementEmitter = std::function<std::string(const ElementCall&)>;

// Unary ops: the float formula and, for ops on integers too, the integer formula ("x" is
// the argument value).
ElementEmitter Unary(std::string float_formula, std::string int_formula = "") {
  return [float_formula, int_formula](const ElementCall& c) {
    const std::string& formula = c.IsFloat() || int_formula.empty() ? float_formula : int_formula;
    return "const auto x = " + c.argument(0, "i") + "; " + c.Return(formula);
  };
}

ElementEmitter Binary(std::string float_formula, std::string int_formula = "") {
  return [float_formula, int_formula](const ElementCall& c) {
    const std::string& formula = c.IsFloat() || int_formula.empty() ? float_formula : int_formula;
    return "const auto a = " + c.Broadcast(0) + "; const auto b = " + c.Broadcast(1) + "; " + c.Return(formula);
  };
}

std::string EmitClip(const ElementCall& c) {
  const double low = c.call.attrs.GetFloat("a_min");
  const double high = c.call.attrs.GetFloat("a_max");
  if (c.IsFloat()) {
    return "const float x = " + c.argument(0, "i") + "; const float raised = x < " + FloatLiteral(low) + " ? " +
           FloatLiteral(low) + " : x; " + c.Return("raised > " + FloatLiteral(high) + " ? " + FloatLiteral(high) + " : raised");
  }
  const auto saturate = [](double value) {
    if (std::isnan(value)) return int64_t{0};
    if (value >= 9.2e18) return std::numeric_limits<int64_t>::max();
    if (value <= -9.2e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(value);
  };
  const std::string lo = IntLiteral(saturate(std::ceil(low)));
  const std::string hi = IntLiteral(saturate(std::floor(high)));
  return "const int64_t x = " + c.argument(0, "i") + "; const int64_t raised = x < " + lo + " ? " + lo + " : x; " +
         c.Return("raised > " + hi + " ? " + hi + " : raised");
}

// A float power by a one-element constant 2 or 3 (layer norm's square, the tanh GELU's cube)
// is emitted as multiplications: the runtime's Power tests the exponent per element and keeps
// a std::pow call, which stops the loop from vectorizing.
std::string EmitPower(const ElementCall& c) {
  const auto* exponent = As<ConstantNode>(c.call.args[1]);
  if (c.IsFloat() && exponent != nullptr && exponent->data.NumElements() == 1) {
    const double value = exponent->data.GetAsDouble(0);
    if (value == 2.0 || value == 3.0) {
      return "const auto a = " + c.Broadcast(0) + "; " + c.Return(value == 2.0 ? "a * a" : "a * a * a");
    }
  }
  return Binary("native::Power(a, b)", "native::IntPower(a, b)")(c);
}

std::string EmitCast(const ElementCall& c) {
  return c.Return("native::Cast<" + StorageType(c.result.dtype) + ">(static_cast<" + StorageType(c.ArgType(0).dtype) +
                  ">(" + c.argument(0, "i") + "))");
}

std::string EmitWhere(const ElementCall& c) {
  return c.Return("(" + c.Broadcast(0) + ") ? (" + c.Broadcast(1) + ") : (" + c.Broadcast(2) + ")");
}

// Declares c0, c1, ... the output coordinates, then returns `body`.
std::string WithCoordinates(const Shape& shape, const std::string& body) {
  std::string code;
  for (size_t d = 0; d < shape.size(); ++d) {
    code += "const index_t c" + std::to_string(d) + " = " + CoordinateExpr(shape, d, "i") + "; ";
  }
  return code + body;
}

std::string EmitTranspose(const ElementCall& c) {
  const Shape& input = c.ArgType(0).shape;
  std::vector<int64_t> axes = c.call.attrs.GetInts("axes");
  if (axes.empty()) {
    axes.resize(input.size());
    std::iota(axes.rbegin(), axes.rend(), 0);
  }
  std::vector<std::string> input_coordinates(input.size());
  for (size_t d = 0; d < axes.size(); ++d) {
    const int64_t axis = axes[d] < 0 ? axes[d] + static_cast<int64_t>(input.size()) : axes[d];
    input_coordinates[axis] = "c" + std::to_string(d);
  }
  return WithCoordinates(c.result.shape, c.Return(c.argument(0, LinearExpr(input, input_coordinates))));
}

std::string EmitBiasAdd(const ElementCall& c) {
  const Shape& shape = c.result.shape;
  const int64_t axis = NormalizeAxis(c.call.attrs.GetInt("axis"), static_cast<int64_t>(shape.size()), "axis");
  return c.Return(c.argument(0, "i") + " + " + c.argument(1, CoordinateExpr(shape, axis, "i")));
}

std::string EmitBatchNorm(const ElementCall& c) {
  const Shape& shape = c.result.shape;
  const int64_t axis = NormalizeAxis(c.call.attrs.GetInt("axis"), static_cast<int64_t>(shape.size()), "axis");
  const std::string channel = CoordinateExpr(shape, axis, "i");
  return "const index_t ch = " + channel + "; const float scale = " + c.argument(1, "ch") + " / std::sqrt(" +
         c.argument(4, "ch") + " + " + FloatLiteral(c.call.attrs.GetFloat("epsilon")) + "); " +
         c.Return("(" + c.argument(0, "i") + " - " + c.argument(3, "ch") + ") * scale + " + c.argument(2, "ch"));
}

std::string EmitStridedSlice(const ElementCall& c) {
  const Shape& input = c.ArgType(0).shape;
  const std::vector<SliceRange> ranges = ResolveSlice(input, c.call.attrs);
  std::vector<std::string> coordinates;
  for (size_t d = 0; d < ranges.size(); ++d) {
    coordinates.push_back("(" + IndexLiteral(ranges[d].start) + " + c" + std::to_string(d) + " * " +
                          IndexLiteral(ranges[d].step) + ")");
  }
  return WithCoordinates(c.result.shape, c.Return(c.argument(0, LinearExpr(input, coordinates))));
}

// Views `shape` as [outer, extent at axis, inner].
struct AxisView {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};

AxisView ViewAt(const Shape& shape, int64_t axis) {
  AxisView view;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    (d < axis ? view.outer : d == axis ? view.extent : view.inner) *= shape[d];
  }
  return view;
}

std::string EmitConcatenate(const ElementCall& c) {
  const Shape& shape = c.result.shape;
  const int64_t axis = NormalizeAxis(c.call.attrs.GetInt("axis"), static_cast<int64_t>(shape.size()), "axis");
  const AxisView out = ViewAt(shape, axis);
  std::string code = "const index_t o = i / " + IndexLiteral(out.extent * out.inner) + "; const index_t a = (i / " +
                     IndexLiteral(out.inner) + ") % " + IndexLiteral(out.extent) + "; const index_t n = i % " +
                     IndexLiteral(out.inner) + "; ";
  int64_t offset = 0;
  for (size_t arg = 0; arg < c.call.args.size(); ++arg) {
    const int64_t extent = c.ArgType(arg).shape[axis];
    if (extent == 0) continue;
    const std::string index = "(o * " + IndexLiteral(extent * out.inner) + " + (a - " + IndexLiteral(offset) + ") * " +
                              IndexLiteral(out.inner) + " + n)";
    const bool last = arg + 1 == c.call.args.size();
    code += (last ? "" : "if (a < " + IndexLiteral(offset + extent) + ") ") + c.Return(c.argument(arg, index)) + " ";
    offset += extent;
  }
  return code + "return {};";
}

std::string EmitSplit(const ElementCall& c) {
  const Shape& input = c.ArgType(0).shape;
  const int64_t axis = NormalizeAxis(c.call.attrs.GetInt("axis"), static_cast<int64_t>(input.size()), "axis");
  const std::vector<int64_t>& sizes = c.call.attrs.GetInts("sizes");
  const int64_t offset = std::accumulate(sizes.begin(), sizes.begin() + c.field, int64_t{0});
  const AxisView out = ViewAt(c.result.shape, axis);
  const std::string index = "(i / " + IndexLiteral(out.extent * out.inner) + " * " + IndexLiteral(input[axis] * out.inner) +
                            " + " + IndexLiteral(offset * out.inner) + " + i % " + IndexLiteral(out.extent * out.inner) + ")";
  return c.Return(c.argument(0, index));
}

std::string EmitTake(const ElementCall& c) {
  const Shape& data = c.ArgType(0).shape;
  const int64_t axis = NormalizeAxis(c.call.attrs.GetInt("axis"), static_cast<int64_t>(data.size()), "axis");
  const AxisView in = ViewAt(data, axis);
  const int64_t indices = NumElements(c.ArgType(1).shape);
  return "const index_t o = i / " + IndexLiteral(indices * in.inner) + "; const index_t j = (i / " + IndexLiteral(in.inner) +
         ") % " + IndexLiteral(indices) + "; const index_t n = i % " + IndexLiteral(in.inner) +
         "; const index_t p = native::GatherPosition(" + c.argument(1, "j") + ", " + IndexLiteral(in.extent) + "); " +
         c.Return(c.argument(0, "(o * " + IndexLiteral(in.extent * in.inner) + " + p * " + IndexLiteral(in.inner) + " + n)"));
}

std::string EmitPad(const ElementCall& c) {
  const Shape& input = c.ArgType(0).shape;
  const std::vector<int64_t>& widths = c.call.attrs.GetInts("pad_width");
  const std::string& mode = c.call.attrs.GetString("mode");
  const size_t rank = input.size();
  std::string code;
  std::vector<std::string> sources;
  for (size_t d = 0; d < rank; ++d) {
    const std::string s = "s" + std::to_string(d);
    const std::string extent = IndexLiteral(input[d]);
    code += "index_t " + s + " = c" + std::to_string(d) + " - " + IndexLiteral(widths[d]) + "; ";
    if (mode == "edge") {
      code += s + " = " + s + " < 0 ? 0 : (" + s + " >= " + extent + " ? " + extent + " - 1 : " + s + "); ";
    } else if (mode == "reflect") {
      code += s + " = " + s + " < 0 ? -" + s + " : (" + s + " >= " + extent + " ? 2 * (" + extent + " - 1) - " + s +
              " : " + s + "); ";
    } else {
      code += "if (" + s + " < 0 || " + s + " >= " + extent + ") return " + FloatLiteral(c.call.attrs.GetFloat("pad_value")) + "; ";
    }
    sources.push_back(s);
  }
  return WithCoordinates(c.result.shape, code + c.Return(c.argument(0, LinearExpr(input, sources))));
}

// Tables of the taps of every output row and column (positions and weights, padded with
// zero-weight taps), then the separable weighted sum.
std::string EmitResize(const ElementCall& c) {
  const Shape& in = c.ArgType(0).shape;
  const Shape& out = c.result.shape;
  const ResizeOptions options = GetResizeOptions(c.call.attrs);
  std::string code;
  std::vector<size_t> widths;
  for (int axis = 0; axis < 2; ++axis) {
    std::vector<std::vector<Tap>> taps;
    size_t width = 1;
    for (int64_t o = 0; o < out[2 + axis]; ++o) {
      taps.push_back(TapsOf(axis, o, in[2 + axis], out[2 + axis], options));
      width = std::max(width, taps.back().size());
    }
    std::string positions;
    std::string weights;
    for (std::vector<Tap>& row : taps) {
      row.resize(width, Tap{0, 0.0});
      for (const Tap& tap : row) {
        positions += std::to_string(tap.position) + ", ";
        weights += FloatLiteral(tap.weight) + ", ";
      }
    }
    const std::string name = axis == 0 ? "rows" : "columns";
    code += "static constexpr index_t " + name + "_at[] = {" + positions + "}; static constexpr float " + name +
            "_weight[] = {" + weights + "}; ";
    widths.push_back(width);
  }
  code += "const index_t plane = i / " + IndexLiteral(out[2] * out[3]) + "; const index_t y = (i / " + IndexLiteral(out[3]) +
          ") % " + IndexLiteral(out[2]) + "; const index_t x = i % " + IndexLiteral(out[3]) + "; float sum = 0.0f; ";
  code += "for (index_t a = 0; a < " + std::to_string(widths[0]) + "; ++a) { for (index_t b = 0; b < " +
          std::to_string(widths[1]) + "; ++b) { const int64_t r = y * " + std::to_string(widths[0]) +
          " + a; const index_t s = x * " + std::to_string(widths[1]) + " + b; sum += rows_weight[r] * columns_weight[s] * " +
          c.argument(0, "(plane * " + IndexLiteral(in[2] * in[3]) + " + rows_at[r] * " + IndexLiteral(in[3]) +
                            " + columns_at[s])") +
          "; } } ";
  return code + c.Return("sum");
}

std::string EmitIdentity(const ElementCall& c) { return c.Return(c.argument(0, "i")); }
std::string EmitBroadcastTo(const ElementCall& c) { return c.Return(c.Broadcast(0)); }

const std::map<std::string, ElementEmitter>& Emitters() {
  static const std::map<std::string, ElementEmitter> emitters = {
      {"nn.relu", Unary("x < 0.0f ? 0.0f : x", "x < 0 ? int64_t{0} : x")},
      {"sigmoid", Unary("native::Sigmoid(x)")},
      {"tanh", Unary("native::Tanh(x)")},
      {"nn.silu", Unary("x * native::Sigmoid(x)")},
      {"nn.hard_swish", Unary("x * native::Min(native::Max(x * (1.0f / 6.0f) + 0.5f, 0.0f), 1.0f)")},
      {"erf", Unary("native::Erf(x)")},
      {"exp", Unary("native::Exp(x)")},
      {"log", Unary("std::log(x)")},
      {"sqrt", Unary("std::sqrt(x)")},
      {"rsqrt", Unary("1.0f / std::sqrt(x)")},
      {"abs", Unary("std::fabs(x)", "x < 0 ? native::WrapNeg(x) : x")},
      {"negative", Unary("-x", "native::WrapNeg(x)")},
      {"floor", Unary("std::floor(x)")},
      {"ceil", Unary("std::ceil(x)")},
      {"round", Unary("std::nearbyint(x)")},
      {"logical_not", Unary("!x")},
      {"nn.leaky_relu", [](const ElementCall& c) {
         return Unary("x < 0.0f ? " + FloatLiteral(c.call.attrs.GetFloat("alpha")) + " * x : x")(c);
       }},
      {"nn.gelu", [](const ElementCall& c) {
         return Unary(c.call.attrs.GetString("approximate") == "tanh" ? "native::GeluTanh(x)" : "native::Gelu(x)")(c);
       }},
      {"clip", EmitClip},
      {"cast", EmitCast},
      {"copy", EmitIdentity},
      {"nn.dropout", EmitIdentity},
      {"reshape", EmitIdentity},
      {"flatten", EmitIdentity},
      {"squeeze", EmitIdentity},
      {"expand_dims", EmitIdentity},
      {"broadcast_to", EmitBroadcastTo},
      {"add", Binary("a + b", "native::WrapAdd(a, b)")},
      {"subtract", Binary("a - b", "native::WrapSub(a, b)")},
      {"multiply", Binary("a * b", "native::WrapMul(a, b)")},
      {"divide", Binary("a / b", "native::IntDivide(a, b)")},
      {"power", EmitPower},
      {"maximum", Binary("native::Max(a, b)")},
      {"minimum", Binary("native::Min(a, b)")},
      {"equal", Binary("a == b")},
      {"not_equal", Binary("a != b")},
      {"less", Binary("a < b")},
      {"less_equal", Binary("a <= b")},
      {"greater", Binary("a > b")},
      {"greater_equal", Binary("a >= b")},
      {"logical_and", Binary("a && b")},
      {"logical_or", Binary("a || b")},
      {"where", EmitWhere},
      {"transpose", EmitTranspose},
      {"nn.bias_add", EmitBiasAdd},
      {"nn.batch_norm", EmitBatchNorm},
      {"strided_slice", EmitStridedSlice},
      {"concatenate", EmitConcatenate},
      {"split", EmitSplit},
      {"take", EmitTake},
      {"nn.pad", EmitPad},
      {"image.resize2d", EmitResize},
  };
  return emitters;
}

}  // namespace

bool HasElementFunction(const CallNode& call) {
  return call.op() != nullptr && Emitters().count(call.op()->name) > 0;
}

std::string EmitElementFunction(const CallNode& call, int field, const ArgumentValue& argument) {
  const Type& type = call.checked_type();
  const TensorTypeNode* result = AsTensorType(type);
  if (const TupleTypeNode* tuple = AsTupleType(type)) result = AsTensorType(tuple->fields.at(field));
  Check(result != nullptr, "native: element function of a non-tensor field");
  return Emitters().at(call.op()->name)(ElementCall{call, field, *result, argument});
}

}  // namespace collage::native
