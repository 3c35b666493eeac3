// Shared pieces of the public API's tests: example models, seeded inputs, the comparison of
// a compiled model's outputs with the reference interpreter's on the model as loaded, and the message
// of an expected error.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "build_paths.h"
#include "collage/collage.h"
#include "runtime/compare.h"

namespace collage::testing {

inline const std::string kConvBlockPath = std::string(COLLAGE_SOURCE_DIR) + "/examples/conv_block.cir";
inline const std::string kMlpPath = std::string(COLLAGE_SOURCE_DIR) + "/examples/mlp.cir";
inline const std::string kIllTypedPath = std::string(COLLAGE_SOURCE_DIR) + "/examples/ill_typed.cir";

bool HasBackend(const std::string& name);

// Seeded uniform values in [-1, 1) for every input of `model`, owned by the returned tensors.
std::vector<api::NamedTensor> RandomInputs(const api::Model& model, uint64_t seed);

// The outputs' comparison with the interpreter on `model` (as loaded) for the same inputs.
Comparison CompareWithInterpreter(const api::Model& model, const std::vector<api::NamedTensor>& inputs,
                                  const std::vector<api::NamedTensor>& outputs);

// The message of the ErrorClass that `action` throws; fails the test when it throws none or
// another class.
template <typename ErrorClass>
std::string MessageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const ErrorClass& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "another error class: " << error.what();
    return "";
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace collage::testing
