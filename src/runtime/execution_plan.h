// The executor's view of a partitioned function: a list of calls to compile and run in
// dataflow order over numbered tensor slots, with tuples flattened away.
//
// Every value of the body is a list of slots (a tensor value one, a tuple value its fields'
// slots in order), so tuples and projections cost nothing at run time. A slot holds a
// flattened argument of the function, a constant, or a tensor a call produces (an activation,
// which the memory planner places in the arena). Each call of the body becomes a step:
//   a partition: a call to a function with Compiler=<backend>, compiled as it is;
//   a host call: any other call (an op outside every partition, a function without Compiler),
//     wrapped in a function of its own (constant operands inlined) named host_<n>, compiled by
//     the universal fallback backend.
// Invariant: steps are in a dependency order, and each step's inputs are produced earlier.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "runtime/memory_planner.h"
#include "support/tensor.h"

namespace collage {

struct TensorSlot {
  enum class Source { kArgument, kConstant, kActivation };
  Source source = Source::kActivation;
  DType dtype = DType::kF32;
  Shape shape;
  size_t argument = 0;  // kArgument: index among the flattened arguments
  Tensor constant;      // kConstant

  size_t NumBytes() const { return static_cast<size_t>(NumElements(shape)) * DTypeSize(dtype); }
};

struct ExecutionStep {
  Function function;           // what is compiled: the partition, or the wrapped host call
  std::string backend;         // the Compiler attribute; empty for a host call
  std::string global_symbol;   // the partition's global_symbol, or host_<n>
  std::vector<size_t> inputs;  // one slot per parameter of `function`
  std::vector<size_t> outputs; // the slots of the function's result, flattened
};

struct ExecutionPlan {
  std::vector<TensorSlot> slots;
  std::vector<ExecutionStep> steps;
  std::vector<size_t> results;  // the slots of the body's value, flattened
  Type result_type;
  std::vector<Type> argument_types;  // the flattened parameter types of the function
};

// Lowers a type-checked function. Throws Error naming the partition when one takes a tuple.
ExecutionPlan BuildExecutionPlan(const Function& function);

// The lifetime of every activation slot, in step numbers: from the step that writes it to the
// last step that reads it, or past the last step for results. `activation_of_slot` receives,
// per slot, the index of its lifetime (or SIZE_MAX for arguments and constants).
std::vector<BufferLifetime> ActivationLifetimes(const ExecutionPlan& plan, std::vector<size_t>* activation_of_slot);

// The op calls inside `function`, nested functions (composites) included.
size_t CountOpCalls(const Function& function);

}  // namespace collage
