// Greedy placement over every registered CPU backend of graphs in the element types only the
// reference kernels compute (f64, i16, u16, u32, u64): no library backend may take them, and
// the placed run must equal the interpreter bit for bit, with values that f32 or int32 would
// change.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "backend/backend_test_util.h"
#include "interpreter/interpreter.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"
#include "runtime/executor.h"
#include "runtime/greedy_placement.h"

namespace collage {
namespace {

std::string Model(const std::string& dtype) {
  const std::string type = "Tensor[(2, 3), " + dtype + "]";
  return "def @main(%x: " + type + ", %y: " + type + ") {\n  %0 = add(%x, %y) : " + type +
         "\n  %1 = multiply(%0, %y) : " + type + "\n  %2 = maximum(%1, %x) : " + type + "\n  nn.relu(%2)\n}\n";
}

// Two inputs whose values f32 (24-bit mantissa) or a 32-bit signed integer would change.
std::pair<Tensor, Tensor> Inputs(DType dtype) {
  switch (dtype) {
    case DType::kF64:
      return {Tensor::FromVector<double>({1 + std::ldexp(1.0, -40), -2, 3e300, 0.5, -0.25, 7}, {2, 3}),
              Tensor::FromVector<double>({1, 3, 1e-300, std::ldexp(1.0, -30), 2, -1}, {2, 3})};
    case DType::kU64:
      return {Tensor::FromVector<uint64_t>({(uint64_t{1} << 40) + 1, 2, 3, 4, 5, 6}, {2, 3}),
              Tensor::FromVector<uint64_t>({3, (uint64_t{1} << 20) + 1, 1, 0, 9, 1}, {2, 3})};
    case DType::kU32:
      return {Tensor::FromVector<uint32_t>({4000000000u, 2, 3, 4, 5, 6}, {2, 3}),
              Tensor::FromVector<uint32_t>({1, 16777217u, 1, 0, 9, 1}, {2, 3})};
    case DType::kU16:
      return {Tensor::FromVector<uint16_t>({65535, 2, 3, 4, 5, 6}, {2, 3}),
              Tensor::FromVector<uint16_t>({1, 300, 1, 0, 9, 1}, {2, 3})};
    default:
      return {Tensor::FromVector<int16_t>({-32768, 2, -3, 4, 5, 6}, {2, 3}),
              Tensor::FromVector<int16_t>({1, 300, -1, 0, -9, 1}, {2, 3})};
  }
}

std::set<std::string> LibraryPartitions(const Module& placed, const BackendRegistry& registry) {
  std::set<std::string> libraries;
  for (const Expr& node : PostOrder(placed.main()->body, /*enter_functions=*/false)) {
    const auto* call = As<CallNode>(node);
    const auto* function = call == nullptr ? nullptr : As<FunctionNode>(call->callee);
    if (function == nullptr || !function->attrs.Has(attr::kCompiler)) continue;
    const std::string name = function->attrs.GetString(attr::kCompiler);
    const BackendPtr backend = registry.Find(name);
    if (backend != nullptr && backend->kind() != BackendKind::kCodeGenerator &&
        backend->kind() != BackendKind::kInterpreter) {
      libraries.insert(name);
    }
  }
  return libraries;
}

TEST(WideDTypesPlacementTest, OnlyTheReferenceKernelsComputeThemAndExactly) {
  const BackendRegistry& registry = BackendRegistry::Global();
  std::vector<std::string> names;
  for (const BackendPtr& backend : registry.All()) {
    if (backend->device() == Device::kCpu && backend->kind() != BackendKind::kInterpreter) {
      names.push_back(backend->name());
    }
  }
  for (DType dtype : {DType::kF64, DType::kI16, DType::kU16, DType::kU32, DType::kU64}) {
    SCOPED_TRACE(DTypeName(dtype));
    const Module module(testing::ParseMainFunction(Model(std::string(DTypeName(dtype)))));
    const auto [x, y] = Inputs(dtype);
    const std::vector<Value> arguments = {Value(x), Value(y)};
    const Module placed = PlaceGreedy(StandardPipeline()(module), names, registry);
    EXPECT_TRUE(LibraryPartitions(placed, registry).empty());
    Executor executor(placed, registry);
    const Tensor actual = executor.Run(arguments).tensor();
    const Tensor expected = Evaluate(module.main(), arguments).tensor();
    EXPECT_TRUE(actual.BitwiseEqual(expected));
    // Negative control: the comparison sees a change in the last bit of one element.
    Tensor changed = expected.Clone();
    static_cast<unsigned char*>(changed.raw_data())[0] ^= 1;
    EXPECT_FALSE(actual.BitwiseEqual(changed));
  }
}

}  // namespace
}  // namespace collage
