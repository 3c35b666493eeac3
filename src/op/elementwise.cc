// Elementwise operators: unary math and activations, broadcasting binary arithmetic,
// comparisons and logic, where, and cast. Kernels map elements in the compute type of the
// input dtype (op/element_access.h); binary ops and where broadcast their inputs like numpy.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "op/all_ops.h"
#include "op/dtype_support.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/scalar_math.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

// Applies `function` to every element of `input`, computing in the input's compute type.
template <typename Function>
Tensor MapElements(const Tensor& input, const Type& result_type, const Function& function) {
  Tensor output = AllocateResult(result_type);
  const int64_t count = input.NumElements();
  WithComputeType(input.dtype(), [&]<typename T>() {
    for (int64_t i = 0; i < count; ++i) StoreElement(output, i, function(LoadElement<T>(input, i)));
  });
  return output;
}

// Registers a unary op. `make_function(attrs)` returns the per-element function, callable
// with double and with int64_t; it throws TypeError for invalid attribute values, so the type
// relation calls it to validate them. The returned builder lets the caller add attributes.
template <typename MakeFunction>
OpDefBuilder RegisterUnary(OpRegistry& registry, const std::string& name, std::string description,
                           DTypeSupport support, MakeFunction make_function) {
  return registry.Register(name)
      .Describe(std::move(description))
      .Args({"data"})
      .Pattern(OpPatternKind::kElemWise)
      .Relation([support, make_function](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        ExpectDTypeSupported(support, data, "data");
        make_function(attrs);
        return arg_types[0];
      })
      .Kernel([name, support, make_function](const std::vector<Tensor>& args, const Attrs& attrs,
                                             const Type& result_type) {
        CheckKernelDType(support, args[0].dtype(), name);
        return std::vector<Tensor>{MapElements(args[0], result_type, make_function(attrs))};
      });
}

// A MakeFunction for unary ops without attributes.
template <typename Function>
auto WithoutAttrs(Function function) {
  return [function](const Attrs&) { return function; };
}

double Gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2)); }

double GeluTanhApproximation(double x) {
  const double sqrt_two_over_pi = std::numbers::sqrt2 / std::sqrt(std::numbers::pi);
  return 0.5 * x * (1.0 + std::tanh(sqrt_two_over_pi * (x + 0.044715 * x * x * x)));
}

// Clamps to [a_min, a_max] (a_max wins when a_min > a_max, like numpy). Integers clamp to the
// integers inside the bounds.
struct Clip {
  double a_min;
  double a_max;

  double operator()(double x) const {
    const double raised = x < a_min ? a_min : x;
    return raised > a_max ? a_max : raised;
  }
  int64_t operator()(int64_t x) const {
    const int64_t low = SaturatingInt64(std::ceil(a_min));
    const int64_t high = SaturatingInt64(std::floor(a_max));
    const int64_t raised = x < low ? low : x;
    return raised > high ? high : raised;
  }
};

// The trigonometric and hyperbolic functions and their inverses.
void RegisterTrigonometricOps(OpRegistry& registry) {
  struct Function {
    const char* name;
    double (*function)(double);
  };
  static constexpr Function kFunctions[] = {
      {"sin", [](double x) { return std::sin(x); }},     {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},     {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},   {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},   {"cosh", [](double x) { return std::cosh(x); }},
      {"asinh", [](double x) { return std::asinh(x); }}, {"acosh", [](double x) { return std::acosh(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
  };
  for (const Function& function : kFunctions) {
    RegisterUnary(registry, function.name, std::string("std::") + function.name + "(x)", kFloatDTypes,
                  WithoutAttrs(function.function));
  }
}

void RegisterUnaryOps(OpRegistry& registry) {
  RegisterUnary(registry, "nn.relu", "max(x, 0)", kNumericDTypes,
                WithoutAttrs([](auto x) { return x < 0 ? decltype(x){0} : x; }));
  RegisterUnary(registry, "nn.leaky_relu", "x for x >= 0, alpha * x below", kFloatDTypes,
                [](const Attrs& attrs) {
                  const double alpha = attrs.GetFloat("alpha");
                  return [alpha](double x) { return x < 0 ? alpha * x : x; };
                })
      .Attr("alpha", AttrKind::kFloat, 0.01);
  RegisterUnary(registry, "sigmoid", "1 / (1 + exp(-x))", kFloatDTypes,
                WithoutAttrs([](double x) { return 1.0 / (1.0 + std::exp(-x)); }));
  RegisterUnary(registry, "tanh", "hyperbolic tangent", kFloatDTypes,
                WithoutAttrs([](double x) { return std::tanh(x); }));
  RegisterUnary(registry, "nn.gelu", "x * Phi(x), exactly (approximate=\"none\") or with the tanh formula",
                kFloatDTypes,
                [](const Attrs& attrs) {
                  const std::string& approximate = GetChoice(attrs, "approximate", {"none", "tanh"});
                  return approximate == "none" ? Gelu : GeluTanhApproximation;
                })
      .Attr("approximate", AttrKind::kString, std::string("none"));
  RegisterUnary(registry, "nn.silu", "x * sigmoid(x) (SiLU, Swish)", kFloatDTypes,
                WithoutAttrs([](double x) { return x / (1.0 + std::exp(-x)); }));
  RegisterUnary(registry, "nn.hard_swish", "x * clip(x / 6 + 1/2, 0, 1)", kFloatDTypes,
                WithoutAttrs([](double x) { return x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0); }));
  RegisterUnary(registry, "erf", "Gauss error function", kFloatDTypes,
                WithoutAttrs([](double x) { return std::erf(x); }));
  RegisterUnary(registry, "exp", "e^x", kFloatDTypes, WithoutAttrs([](double x) { return std::exp(x); }));
  RegisterUnary(registry, "log", "natural logarithm", kFloatDTypes, WithoutAttrs([](double x) { return std::log(x); }));
  RegisterUnary(registry, "sqrt", "square root", kFloatDTypes, WithoutAttrs([](double x) { return std::sqrt(x); }));
  RegisterUnary(registry, "rsqrt", "1 / sqrt(x)", kFloatDTypes,
                WithoutAttrs([](double x) { return 1.0 / std::sqrt(x); }));
  RegisterUnary(registry, "abs", "absolute value", kNumericDTypes, WithoutAttrs([](auto x) { return scalar::Abs(x); }));
  RegisterUnary(registry, "negative", "-x", kNumericDTypes, WithoutAttrs([](auto x) { return scalar::Negate(x); }));
  RegisterUnary(registry, "floor", "round toward -inf", kFloatDTypes,
                WithoutAttrs([](double x) { return std::floor(x); }));
  RegisterUnary(registry, "ceil", "round toward +inf", kFloatDTypes, WithoutAttrs([](double x) { return std::ceil(x); }));
  // nearbyint in the default rounding mode rounds halves to even, like numpy.round.
  RegisterUnary(registry, "round", "round to nearest, halves to even", kFloatDTypes,
                WithoutAttrs([](double x) { return std::nearbyint(x); }));
  RegisterUnary(registry, "clip", "clamp to [a_min, a_max]", kNumericDTypes,
                [](const Attrs& attrs) { return Clip{attrs.GetFloat("a_min"), attrs.GetFloat("a_max")}; })
      .Attr("a_min", AttrKind::kFloat)
      .Attr("a_max", AttrKind::kFloat);
  RegisterUnary(registry, "logical_not", "boolean negation", kBoolDTypes, WithoutAttrs([](auto x) { return !x; }));
  RegisterUnary(registry, "sign", "-1, 0 or 1 by the sign of x (NaN stays NaN)", kNumericDTypes,
                WithoutAttrs([](auto x) { return x > 0 ? decltype(x){1} : x < 0 ? decltype(x){-1} : x; }));
  RegisterTrigonometricOps(registry);
}

enum class BinaryResult { kSameAsInputs, kBool };

// Applies an integer function; in the floating-point compute type it throws, as ops of
// integer dtypes only never compute there.
template <typename T>
T IntegerOnly(T a, T b, int64_t (*function)(int64_t, int64_t)) {
  if constexpr (std::is_floating_point_v<T>) {
    throw Error("an integer-only op computed in floating point");
  } else {
    return function(a, b);
  }
}

// Registers a binary op with numpy broadcasting; `function` is callable with two doubles and
// with two int64_t.
template <typename Function>
void RegisterBinary(OpRegistry& registry, const std::string& name, std::string description, DTypeSupport support,
                    BinaryResult result, Function function) {
  registry.Register(name)
      .Describe(std::move(description))
      .Args({"lhs", "rhs"})
      .Pattern(OpPatternKind::kBroadcast)
      .Relation([support, result](const std::vector<Type>& arg_types, const Attrs&) -> Type {
        const TensorTypeNode& lhs = ExpectTensorArg(arg_types, 0, "lhs");
        const TensorTypeNode& rhs = ExpectTensorArg(arg_types, 1, "rhs");
        ExpectSameDType(lhs, "lhs", rhs, "rhs");
        ExpectDTypeSupported(support, lhs, "lhs");
        return TensorType(result == BinaryResult::kBool ? DType::kBool : lhs.dtype,
                          BroadcastShapes(lhs.shape, rhs.shape));
      })
      .Kernel([name, support, function](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        const Tensor& lhs = args[0];
        const Tensor& rhs = args[1];
        CheckKernelDType(support, lhs.dtype(), name);
        Check(lhs.dtype() == rhs.dtype(), name + ": reference kernel needs operands of the same dtype");
        Tensor output = AllocateResult(result_type);
        const std::vector<int64_t> lhs_index = BroadcastIndexMap(lhs.shape(), output.shape());
        const std::vector<int64_t> rhs_index = BroadcastIndexMap(rhs.shape(), output.shape());
        WithComputeType(lhs.dtype(), [&]<typename T>() {
          for (int64_t i = 0; i < output.NumElements(); ++i) {
            StoreElement(output, i, function(LoadElement<T>(lhs, lhs_index[i]), LoadElement<T>(rhs, rhs_index[i])));
          }
        });
        return std::vector<Tensor>{output};
      });
}

void RegisterBinaryOps(OpRegistry& registry) {
  constexpr BinaryResult kSame = BinaryResult::kSameAsInputs;
  constexpr BinaryResult kBool = BinaryResult::kBool;
  RegisterBinary(registry, "add", "lhs + rhs", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Add(a, b); });
  RegisterBinary(registry, "subtract", "lhs - rhs", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Subtract(a, b); });
  RegisterBinary(registry, "multiply", "lhs * rhs", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Multiply(a, b); });
  RegisterBinary(registry, "divide", "lhs / rhs; integers truncate toward zero", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Divide(a, b); });
  RegisterBinary(registry, "power", "lhs ^ rhs", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Power(a, b); });
  RegisterBinary(registry, "truncated_mod", "remainder with the sign of lhs (C's % and fmod)", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::TruncatedRemainder(a, b); });
  RegisterBinary(registry, "floor_mod", "remainder with the sign of rhs (Python's %)", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::FlooredRemainder(a, b); });
  RegisterBinary(registry, "maximum", "larger of the two; NaN propagates", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Maximum(a, b); });
  RegisterBinary(registry, "minimum", "smaller of the two; NaN propagates", kNumericDTypes, kSame,
                 [](auto a, auto b) { return scalar::Minimum(a, b); });
  // Integer-only: the floating-point instantiation exists for the shared kernel but is never
  // reached, as the relation and the kernel's dtype check refuse floating-point operands.
  RegisterBinary(registry, "left_shift", "the bits of lhs shifted left by rhs", kIntegerDTypes, kSame,
                 [](auto a, auto b) { return IntegerOnly(a, b, scalar::ShiftLeft); });
  RegisterBinary(registry, "right_shift", "the bits of lhs shifted right by rhs (the sign fills)", kIntegerDTypes,
                 kSame, [](auto a, auto b) { return IntegerOnly(a, b, scalar::ShiftRight); });
  RegisterBinary(registry, "equal", "lhs == rhs", kAllDTypes, kBool, [](auto a, auto b) { return a == b; });
  RegisterBinary(registry, "not_equal", "lhs != rhs", kAllDTypes, kBool, [](auto a, auto b) { return a != b; });
  RegisterBinary(registry, "less", "lhs < rhs", kAllDTypes, kBool, [](auto a, auto b) { return a < b; });
  RegisterBinary(registry, "less_equal", "lhs <= rhs", kAllDTypes, kBool, [](auto a, auto b) { return a <= b; });
  RegisterBinary(registry, "greater", "lhs > rhs", kAllDTypes, kBool, [](auto a, auto b) { return a > b; });
  RegisterBinary(registry, "greater_equal", "lhs >= rhs", kAllDTypes, kBool, [](auto a, auto b) { return a >= b; });
  RegisterBinary(registry, "logical_and", "lhs and rhs", kBoolDTypes, kBool,
                 [](auto a, auto b) { return a != 0 && b != 0; });
  RegisterBinary(registry, "logical_or", "lhs or rhs", kBoolDTypes, kBool,
                 [](auto a, auto b) { return a != 0 || b != 0; });
}

// Broadcasts `shape` with `accumulated`, naming the arguments involved when they do not fit.
Shape BroadcastNamed(const Shape& accumulated, const std::string& accumulated_names, const Shape& shape,
                     const std::string& name) {
  try {
    return BroadcastShapes(accumulated, shape);
  } catch (const TypeError& error) {
    throw TypeError(accumulated_names + " and " + name + ": " + error.what());
  }
}

void RegisterWhere(OpRegistry& registry) {
  registry.Register("where")
      .Describe("x where condition holds, else y, with three-way numpy broadcasting")
      .Args({"condition", "x", "y"})
      .Pattern(OpPatternKind::kBroadcast)
      .Relation([](const std::vector<Type>& arg_types, const Attrs&) -> Type {
        const TensorTypeNode& condition = ExpectTensorArg(arg_types, 0, "condition");
        const TensorTypeNode& x = ExpectTensorArg(arg_types, 1, "x");
        const TensorTypeNode& y = ExpectTensorArg(arg_types, 2, "y");
        ExpectDTypeSupported(kBoolDTypes, condition, "condition");
        ExpectSameDType(x, "x", y, "y");
        const Shape condition_and_x = BroadcastNamed(condition.shape, "condition", x.shape, "x");
        return TensorType(x.dtype, BroadcastNamed(condition_and_x, "condition, x", y.shape, "y"));
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        const Tensor& condition = args[0];
        const Tensor& x = args[1];
        const Tensor& y = args[2];
        CheckKernelDType(kBoolDTypes, condition.dtype(), "where");
        Tensor output = AllocateResult(result_type);
        const std::vector<int64_t> condition_index = BroadcastIndexMap(condition.shape(), output.shape());
        const std::vector<int64_t> x_index = BroadcastIndexMap(x.shape(), output.shape());
        const std::vector<int64_t> y_index = BroadcastIndexMap(y.shape(), output.shape());
        const bool* flags = condition.data<bool>();
        for (int64_t i = 0; i < output.NumElements(); ++i) {
          if (flags[condition_index[i]]) {
            CopyElement(x, x_index[i], output, i);
          } else {
            CopyElement(y, y_index[i], output, i);
          }
        }
        return std::vector<Tensor>{output};
      });
}

DType CastTarget(const Attrs& attrs) {
  const std::string& name = attrs.GetString("dtype");
  std::optional<DType> dtype = ParseDType(name);
  if (!dtype) {
    throw TypeError("attribute dtype: unknown dtype \"" + name + "\" (expected f32, f16, bf16, i8, u8, i32, i64 or bool)");
  }
  return *dtype;
}

void RegisterCast(OpRegistry& registry) {
  registry.Register("cast")
      .Describe("converts to another dtype: floats to integers round toward zero (saturating), to bool is x != 0")
      .Args({"data"})
      .Attr("dtype", AttrKind::kString)
      .Pattern(OpPatternKind::kElemWise)
      .Relation([](const std::vector<Type>& arg_types, const Attrs& attrs) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        return TensorType(CastTarget(attrs), data.shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type& result_type) {
        return std::vector<Tensor>{MapElements(args[0], result_type, [](auto x) { return x; })};
      });
}

}  // namespace

void RegisterElementwiseOps(OpRegistry& registry) {
  RegisterUnaryOps(registry);
  RegisterBinaryOps(registry);
  RegisterWhere(registry);
  RegisterCast(registry);
}

}  // namespace collage
