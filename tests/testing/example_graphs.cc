#include "testing/example_graphs.h"

#include <cmath>
#include <limits>

#include "ir/type_inference.h"
#include "ir/op_registry.h"

namespace collage::testing {
namespace {

using Ints = std::vector<int64_t>;

Type F32Type(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

Constant RandomConstant(Shape shape, uint64_t seed) {
  return MakeConstant(Tensor::Random(DType::kF32, std::move(shape), seed));
}

// A constant of `dtype` holding `values` (converted with SetFromDouble).
Constant ConstantOf(DType dtype, Shape shape, const std::vector<double>& values) {
  Tensor data = Tensor::Zeros(dtype, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) data.SetFromDouble(static_cast<int64_t>(i), values[i]);
  return MakeConstant(std::move(data));
}

Function ConvBiasRelu() {
  Var x = MakeVar("x", F32Type({1, 3, 6, 6}));
  Expr conv = CallOp("nn.conv2d", {x, RandomConstant({4, 3, 3, 3}, 11)},
                     {{"padding", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}});
  Expr biased = CallOp("nn.bias_add", {conv, RandomConstant({4}, 12)});
  return MakeFunction({x}, CallOp("nn.relu", {biased}));
}

Function Mlp() {
  Var x = MakeVar("x", F32Type({2, 8}));
  Expr hidden =
      CallOp("nn.relu",
             {CallOp("nn.bias_add", {CallOp("nn.dense", {x, RandomConstant({16, 8}, 21)}), RandomConstant({16}, 22)})});
  Expr logits = CallOp("nn.dense", {hidden, RandomConstant({4, 16}, 23)});
  return MakeFunction({x}, CallOp("nn.softmax", {logits}, {{"axis", int64_t{1}}}));
}

// One relu feeding three users, and `x` used by several calls.
Function SharedDiamond() {
  Var x = MakeVar("x", F32Type({3, 4}));
  Expr relu = CallOp("nn.relu", {x});
  Expr left = CallOp("add", {relu, x});
  Expr right = CallOp("multiply", {relu, relu});
  return MakeFunction({x}, CallOp("subtract", {CallOp("maximum", {left, right}), relu}));
}

Function SplitProjections() {
  Var x = MakeVar("x", F32Type({2, 6, 4}));
  Expr parts = CallOp("split", {x}, {{"sizes", Ints{1, 2, 3}}, {"axis", int64_t{1}}});
  Expr first = MakeTupleGetItem(parts, 0);
  Expr third = MakeTupleGetItem(parts, 2);
  Expr joined = CallOp("concatenate", {third, MakeTupleGetItem(parts, 1), first}, {{"axis", int64_t{1}}});
  return MakeFunction({x}, CallOp("tanh", {joined}));
}

// Nested tuples, a 1-tuple, an empty tuple and projections of projections.
Function Tuples() {
  Var a = MakeVar("a", F32Type({2}));
  Var b = MakeVar("b", F32Type({3}));
  Expr pair = MakeTuple({a, b});
  Expr single = MakeTuple({CallOp("exp", {a})});
  Expr nested = MakeTuple({pair, single, MakeTuple({})});
  Expr inner = MakeTupleGetItem(MakeTupleGetItem(nested, 1), 0);
  return MakeFunction({a, b}, MakeTuple({inner, MakeTupleGetItem(MakeTupleGetItem(nested, 0), 1), nested}));
}

// A primitive function called twice (the function node is shared).
Function PrimitiveCalledTwice() {
  Var p = MakeVar("p", F32Type({1, 4}));
  Function fused = MakeFunction({p}, CallOp("sigmoid", {CallOp("nn.relu", {p})}),
                                {{attr::kPrimitive, int64_t{1}},
                                 {attr::kCompiler, std::string("native")},
                                 {attr::kGlobalSymbol, std::string("native_0")}});
  Var x = MakeVar("x", F32Type({1, 4}));
  Expr once = MakeCall(fused, {x});
  Expr twice = MakeCall(fused, {once});
  return MakeFunction({x}, CallOp("add", {once, twice}));
}

// A partition function holding a composite function: nesting two deep, constants inside.
Function CompositeInPartition() {
  Var data = MakeVar("data", F32Type({1, 2, 5, 5}));
  Var weight = MakeVar("weight", F32Type({2, 2, 1, 1}));
  Function composite = MakeFunction({data, weight}, CallOp("nn.relu", {CallOp("nn.conv2d", {data, weight})}),
                                    {{attr::kComposite, std::string("onednn.conv2d_relu")},
                                     {attr::kPartitionedFromPattern, std::string("nn.conv2d_nn.relu_")}});
  Var input = MakeVar("input", F32Type({1, 2, 5, 5}));
  Expr conv = MakeCall(composite, {input, RandomConstant({2, 2, 1, 1}, 31)});
  Function partition =
      MakeFunction({input}, CallOp("nn.global_avg_pool2d", {conv}),
                   {{attr::kCompiler, std::string("onednn")}, {attr::kGlobalSymbol, std::string("onednn_main_1")}});
  Var x = MakeVar("x", F32Type({1, 2, 5, 5}));
  return MakeFunction({x}, MakeCall(partition, {CallOp("nn.relu", {x})}));
}

Function SpecialFloats() {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<double> values = {std::numeric_limits<float>::quiet_NaN(),
                                      inf,
                                      -inf,
                                      -0.0,
                                      0.0,
                                      std::numeric_limits<float>::denorm_min(),
                                      std::numeric_limits<float>::min(),
                                      std::numeric_limits<float>::max(),
                                      -std::numeric_limits<float>::max(),
                                      0.1f,
                                      1.0f / 3.0f,
                                      1e-7f,
                                      123456789.0f,
                                      -2.5f,
                                      1e30f,
                                      7.0f};
  Var x = MakeVar("x", F32Type({16}));
  return MakeFunction({x}, CallOp("add", {x, ConstantOf(DType::kF32, {16}, values)}));
}

Function HalfPrecisionConstants() {
  Var h = MakeVar("h", TensorType(DType::kF16, {5}));
  Var b = MakeVar("b", TensorType(DType::kBF16, {5}));
  const std::vector<double> values = {65504.0, -0.0, 6.103515625e-05, 0.333251953125,
                                      -std::numeric_limits<double>::infinity()};
  const std::vector<double> bf16_values = {3.3895313892515355e+38, 1e-40, -1.5, 0.0078125,
                                           std::numeric_limits<double>::quiet_NaN()};
  Expr half_sum = CallOp("add", {h, ConstantOf(DType::kF16, {5}, values)});
  Expr bf16_sum = CallOp("multiply", {b, ConstantOf(DType::kBF16, {5}, bf16_values)});
  return MakeFunction({h, b}, MakeTuple({half_sum, bf16_sum}));
}

Function IntegerConstants() {
  Var table = MakeVar("table", F32Type({4, 3}));
  Var flags = MakeVar("flags", TensorType(DType::kBool, {2, 3}));
  Expr indices = ConstantOf(DType::kI64, {2}, {3, 0});
  Expr rows = CallOp("take", {table, indices});
  Expr zeros = CallOp("cast", {ConstantOf(DType::kI32, {2, 3}, {0, -2147483648.0, 2147483647, 5, -7, 1})},
                      {{"dtype", std::string("f32")}});
  Expr chosen = CallOp("where", {flags, rows, zeros});
  Tensor extremes = Tensor::Zeros(DType::kI64, {3});
  extremes.data<int64_t>()[0] = std::numeric_limits<int64_t>::min();
  extremes.data<int64_t>()[1] = std::numeric_limits<int64_t>::max();
  extremes.data<int64_t>()[2] = 9007199254740993;  // 2^53 + 1: not exact as a double
  return MakeFunction({table, flags}, MakeTuple({chosen, ConstantOf(DType::kI8, {4}, {-128, 127, 0, -1}),
                                                 ConstantOf(DType::kU8, {3}, {0, 255, 17}), MakeConstant(extremes),
                                                 ConstantOf(DType::kBool, {2, 2}, {1, 0, 0, 1})}));
}

// Op attributes of kinds int, float, string and int list (some at their defaults, which the
// printer omits), function attributes of every kind including a float list.
Function EveryAttributeKind() {
  Var x = MakeVar("x", F32Type({1, 2, 4, 4}));
  Expr leaky = CallOp("nn.leaky_relu", {x}, {{"alpha", 0.125}});
  Expr resized = CallOp("image.resize2d", {leaky},
                        {{"size", Ints{8, 6}}, {"method", std::string("linear")}, {"cubic_coeff_a", -0.5}});
  Expr padded = CallOp("nn.pad", {resized}, {{"pad_width", Ints{0, 0, 1, 2, 0, 0, 1, 0}}, {"pad_value", -1.5}});
  Expr pooled = CallOp("nn.max_pool2d", {padded},
                       {{"pool_size", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}});
  Var p = MakeVar("p", InferType(pooled));
  Function tagged = MakeFunction({p}, CallOp("nn.gelu", {p}, {{"approximate", std::string("tanh")}}),
                                 {{"Primitive", int64_t{1}},
                                  {"scales", std::vector<double>{0.5, -2.0, 1e-20, 3e+300}},
                                  {"offsets", Ints{-3, 0, 9223372036854775807}},
                                  {"ratio", 2.0 / 3.0},
                                  {"label", std::string("quote \" and backslash \\ and\nnewline")},
                                  {"odd name/with:chars", std::string("")}});
  return MakeFunction({x}, MakeCall(tagged, {pooled}));
}

Function ReductionsAndTransforms() {
  Var x = MakeVar("x", F32Type({2, 3, 4}));
  Expr transposed = CallOp("transpose", {x}, {{"axes", Ints{2, 0, 1}}});
  Expr reshaped = CallOp("reshape", {transposed}, {{"newshape", Ints{4, 6}}});
  Expr sliced =
      CallOp("strided_slice", {reshaped}, {{"begin", Ints{1, 0}}, {"end", Ints{4, 6}}, {"strides", Ints{1, 2}}});
  Expr summed = CallOp("sum", {sliced}, {{"axis", Ints{1}}, {"keepdims", int64_t{1}}});
  Expr averaged = CallOp("mean", {x}, {{"axis", Ints{0, 2}}});
  Expr expanded = CallOp("expand_dims", {averaged}, {{"axes", Ints{0}}});
  return MakeFunction({x}, MakeTuple({summed, CallOp("squeeze", {expanded}), CallOp("max", {x})}));
}

Function AttentionBlock() {
  Var x = MakeVar("x", F32Type({1, 4, 8}));
  Expr normed = CallOp("nn.layer_norm", {x, RandomConstant({8}, 41), RandomConstant({8}, 42)}, {{"epsilon", 1e-6}});
  Expr scores = CallOp("nn.batch_matmul", {normed, normed}, {{"transpose_b", int64_t{1}}});
  Expr scaled = CallOp("multiply", {scores, ConstantOf(DType::kF32, {}, {0.35355339059327373})});
  Expr weights = CallOp("nn.softmax", {scaled});
  return MakeFunction({x}, CallOp("nn.batch_matmul", {weights, normed}));
}

// Parameter name hints that collide, are empty, are all digits or need quoting.
Function AwkwardNames() {
  Var first = MakeVar("x", F32Type({2}));
  Var second = MakeVar("x", F32Type({2}));
  Var unnamed = MakeVar("", F32Type({2}));
  Var digits = MakeVar("0", F32Type({2}));
  Var dotted = MakeVar("input.1", F32Type({2}));
  Var suffixed = MakeVar("x_1", F32Type({2}));
  Var quoted = MakeVar("say \"hi\"", F32Type({2}));
  Expr sum = CallOp("add", {first, second});
  for (const Var& var : {unnamed, digits, dotted, suffixed, quoted}) sum = CallOp("add", {sum, var});
  return MakeFunction({first, second, unnamed, digits, dotted, suffixed, quoted}, sum);
}

Function ScalarAndEmptyConstants() {
  Var x = MakeVar("x", F32Type({}));
  Expr scalar = ConstantOf(DType::kF32, {}, {2.5});
  Expr empty = ConstantOf(DType::kF32, {0, 3}, {});
  Expr empty_ints = ConstantOf(DType::kI32, {0}, {});
  return MakeFunction({x}, MakeTuple({CallOp("power", {x, scalar}), empty, empty_ints}));
}

Function ConvolutionFamily() {
  Var x = MakeVar("x", F32Type({1, 4, 7, 7}));
  Expr grouped = CallOp("nn.conv2d", {x, RandomConstant({4, 2, 3, 3}, 51)},
                        {{"groups", int64_t{2}}, {"dilation", Ints{2, 2}}, {"padding", Ints{2, 2, 2, 2}}});
  Expr norm = CallOp("nn.batch_norm", {grouped, RandomConstant({4}, 52), RandomConstant({4}, 53),
                                       RandomConstant({4}, 54), ConstantOf(DType::kF32, {4}, {1, 2, 0.5, 4})});
  Expr up = CallOp("nn.conv2d_transpose", {norm, RandomConstant({4, 2, 2, 2}, 55)},
                   {{"strides", Ints{2, 2}}, {"output_padding", Ints{1, 1}}});
  Expr pooled = CallOp("nn.avg_pool2d", {up}, {{"pool_size", Ints{2, 2}}, {"count_include_pad", int64_t{1}}});
  return MakeFunction({x},
                      CallOp("flatten", {CallOp("nn.adaptive_avg_pool2d", {pooled}, {{"output_size", Ints{2, 2}}})}));
}

// The body is the parameter itself.
Function Identity() {
  Var x = MakeVar("x", TensorType(DType::kI8, {3, 1}));
  return MakeFunction({x}, x);
}

// No parameters; the body is a constant.
Function ConstantOnly() { return MakeFunction({}, ConstantOf(DType::kF32, {2, 2}, {1, -1, 0.5, 1e-3})); }

// A function returning a tuple, called, then projected; the same constant used twice.
Function TupleReturningFunction() {
  Var p = MakeVar("p", F32Type({4}));
  Function pair = MakeFunction({p}, MakeTuple({CallOp("nn.relu", {p}), CallOp("negative", {p})}));
  Var x = MakeVar("x", F32Type({4}));
  Expr bias = ConstantOf(DType::kF32, {4}, {1, 2, 3, 4});
  Expr result = MakeCall(pair, {CallOp("add", {x, bias})});
  return MakeFunction({x}, CallOp("divide", {CallOp("add", {MakeTupleGetItem(result, 0), bias}),
                                             CallOp("subtract", {MakeTupleGetItem(result, 1), bias})}));
}

}  // namespace

std::vector<std::pair<std::string, Function>> ExampleGraphs() {
  std::vector<std::pair<std::string, Function>> graphs = {
      {"conv_bias_relu", ConvBiasRelu()},
      {"mlp", Mlp()},
      {"shared_diamond", SharedDiamond()},
      {"split_projections", SplitProjections()},
      {"tuples", Tuples()},
      {"primitive_called_twice", PrimitiveCalledTwice()},
      {"composite_in_partition", CompositeInPartition()},
      {"special_floats", SpecialFloats()},
      {"half_precision_constants", HalfPrecisionConstants()},
      {"integer_constants", IntegerConstants()},
      {"every_attribute_kind", EveryAttributeKind()},
      {"reductions_and_transforms", ReductionsAndTransforms()},
      {"attention_block", AttentionBlock()},
      {"awkward_names", AwkwardNames()},
      {"scalar_and_empty_constants", ScalarAndEmptyConstants()},
      {"convolution_family", ConvolutionFamily()},
      {"identity", Identity()},
      {"constant_only", ConstantOnly()},
      {"tuple_returning_function", TupleReturningFunction()},
  };
  for (const auto& [name, function] : graphs) InferType(function);
  return graphs;
}

}  // namespace collage::testing
