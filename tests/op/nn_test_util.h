// Test helpers for the nn and image op tests: evaluate one op call directly through its
// OpDef (attribute normalization, type relation, reference kernel), collect the TypeError
// that InferType reports for a small graph, and compare tensors with expected values.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/type_inference.h"
#include "ir/op_registry.h"
#include "runtime/compare.h"
#include "support/tensor.h"

namespace collage::nn_testing {

inline Tensor F32(const std::vector<float>& values, Shape shape) { return Tensor::FromVector<float>(values, shape); }

// Runs op `name` on `args`: normalizes the attributes, infers the result type from the
// arguments' types and returns the reference kernel's single output.
inline Tensor EvaluateOp(const std::string& name, const std::vector<Tensor>& args, const Attrs& attrs = {}) {
  const OpDef& op = OpRegistry::Global().Get(name);
  const Attrs normalized = NormalizeAttrs(op, attrs);
  std::vector<Type> arg_types;
  for (const Tensor& arg : args) arg_types.push_back(TensorType(arg.dtype(), arg.shape()));
  const Type result_type = op.infer_type(arg_types, normalized);
  std::vector<Tensor> outputs = op.reference_kernel(args, normalized, result_type);
  EXPECT_EQ(outputs.size(), 1u);
  return outputs.empty() ? Tensor() : outputs[0];
}

// Builds fn(%arg0: types[0], ...) { name(%arg0, ...) }, runs InferType and returns the result
// type of the call.
inline Type InferCallType(const std::string& name, const std::vector<Type>& arg_types, const Attrs& attrs = {}) {
  std::vector<Var> params;
  std::vector<Expr> args;
  for (size_t i = 0; i < arg_types.size(); ++i) {
    params.push_back(MakeVar("arg" + std::to_string(i), arg_types[i]));
    args.push_back(params.back());
  }
  const Function function = MakeFunction(params, CallOp(name, args, attrs));
  InferType(function);
  return function->body->checked_type();
}

// The message of the TypeError that InferCallType raises; fails the test when there is none.
inline std::string InferTypeError(const std::string& name, const std::vector<Type>& arg_types,
                                  const Attrs& attrs = {}) {
  try {
    const Type type = InferCallType(name, arg_types, attrs);
    ADD_FAILURE() << name << " unexpectedly accepted the arguments, giving " << TypeToString(type);
  } catch (const TypeError& error) {
    return error.what();
  }
  return "";
}

inline Type F32Type(Shape shape) { return TensorType(DType::kF32, std::move(shape)); }

// Checks the shape and the values of an f32 tensor by CompareValues' rule: the largest error
// at most `relative` times the largest |expected|.
inline void ExpectTensorNear(const Tensor& actual, const Shape& shape, const std::vector<double>& expected,
                             double relative = 1e-5) {
  ASSERT_TRUE(actual.defined());
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(actual.NumElements(), static_cast<int64_t>(expected.size()));
  Tensor want = Tensor::Zeros(DType::kF32, shape);
  for (size_t i = 0; i < expected.size(); ++i) want.SetFromDouble(static_cast<int64_t>(i), expected[i]);
  const Comparison comparison = CompareValues(actual, want, Tolerance{relative});
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
}

// Checks two tensors of the same shape by CompareValues' rule.
inline void ExpectTensorsNear(const Tensor& actual, const Tensor& expected, double relative = 1e-4) {
  ASSERT_EQ(actual.shape(), expected.shape());
  const Comparison comparison = CompareValues(actual, expected, Tolerance{relative});
  EXPECT_TRUE(comparison.ok()) << comparison.first_mismatch;
}

}  // namespace collage::nn_testing
