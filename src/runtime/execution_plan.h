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
//     the universal fallback backend;
//   a conversion: a slot's buffer rewritten in another layout, named convert_<n>.
// Each slot's buffer is in a layout: a partition's results in its boundary's result layout,
// everything else plain. Where a step reads a slot in a layout whose bytes differ, a conversion step
// before it writes a new slot in that layout (once per slot and layout), and so does one for
// the function's results.
// Invariant: steps are in a dependency order, and each step's inputs are produced earlier;
// each input slot's layout has the bytes its step expects.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "runtime/memory_planner.h"
#include "support/tensor.h"
#include "support/partition_layouts.h"
#include "support/tensor_format.h"

namespace collage {

struct TensorSlot {
  enum class Source { kArgument, kConstant, kActivation };
  Source source = Source::kActivation;
  DType dtype = DType::kF32;
  Shape shape;
  size_t argument = 0;  // kArgument: index among the flattened arguments
  Tensor constant;      // kConstant
  Layout layout = Layout::kPlain;  // of its buffer; `shape` is the logical shape

  size_t NumBytes() const { return static_cast<size_t>(NumElements(PhysicalShape())) * DTypeSize(dtype); }
  Shape PhysicalShape() const { return collage::PhysicalShape(shape, layout); }
};

struct ExecutionStep {
  Function function;           // what is compiled: the partition, or the wrapped host call; null for a conversion
  std::string backend;         // the Compiler attribute; empty for a host call or a conversion
  std::string global_symbol;   // the partition's global_symbol, host_<n> or convert_<n>
  std::vector<size_t> inputs;  // one slot per parameter of `function`; a conversion: its source
  std::vector<size_t> outputs; // the slots of the function's result, flattened; a conversion: its target
  PartitionLayouts layouts;  // the layouts its inputs and outputs are in; a conversion: the source's and target's

  bool IsConversion() const { return function == nullptr; }
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
