#include "runtime/executor.h"

#include <chrono>
#include <cstdint>
#include <map>

#include "ir/type_inference.h"
#include "runtime/execution_plan.h"
#include "runtime/invoke_executable.h"
#include "runtime/layout_conversion_executable.h"

namespace collage {

struct Executor::State {
  ExecutionPlan plan;
  std::vector<std::shared_ptr<Executable>> executables;  // one per step; shared with the cache
  MemoryPlan memory;
  Tensor arena;
  std::vector<Tensor> slot_tensors;  // activations and constants bound once; arguments per run
  // Per step, per input: the buffer shape it is passed with. A slot whose bytes are the same in
  // the step's layout is passed reshaped to it; a conversion reads its source as it is.
  std::vector<std::vector<Shape>> input_shapes;
  std::vector<Type> parameter_types;
  std::vector<std::string> parameter_names;
  std::vector<size_t> first_argument_of_parameter;  // into plan.argument_types
  std::unique_ptr<Profiler> profiler;
  std::vector<size_t> profile_index;  // per step
};

namespace {

// The profiler's name for the steps that convert layouts.
constexpr const char* kConversionBackendName = "convert";

void CompileSteps(const ExecutionPlan& plan, const BackendRegistry& registry, const ExecutorOptions& options,
                  std::vector<std::shared_ptr<Executable>>& executables, std::vector<std::string>& backend_of_step) {
  std::map<std::string, std::vector<size_t>> steps_of_backend;
  executables.resize(plan.steps.size());
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const ExecutionStep& step = plan.steps[i];
    if (step.IsConversion()) {
      const TensorSlot& source = plan.slots[step.inputs[0]];
      executables[i] = MakeLayoutConversionExecutable(source.shape, source.layout, step.layouts.results);
      backend_of_step[i] = kConversionBackendName;
      continue;
    }
    backend_of_step[i] = step.backend.empty() ? registry.UniversalFallback()->name() : step.backend;
    if (options.cache != nullptr) {
      executables[i] = options.cache->Find(backend_of_step[i], step.function, options.compile);
      if (executables[i]) continue;
    }
    steps_of_backend[backend_of_step[i]].push_back(i);
  }
  for (const auto& [name, steps] : steps_of_backend) {
    BackendPtr backend;
    try {
      backend = registry.Get(name);
    } catch (const Error& error) {
      throw Error("partition " + plan.steps[steps.front()].global_symbol + ": " + error.what());
    }
    std::vector<Function> functions;
    for (size_t step : steps) functions.push_back(plan.steps[step].function);
    std::vector<CompileResult> results = backend->CompileAll(functions, options.compile);
    Check(results.size() == functions.size(), "backend '" + name + "': CompileAll returned the wrong number of results");
    for (size_t i = 0; i < steps.size(); ++i) {
      if (!results[i].executable) {
        throw Error("partition " + plan.steps[steps[i]].global_symbol + ": backend '" + name +
                    "' cannot compile it: " + results[i].error);
      }
      executables[steps[i]] = std::move(results[i].executable);
      if (options.cache != nullptr) {
        options.cache->Insert(name, plan.steps[steps[i]].function, options.compile, executables[steps[i]]);
      }
    }
  }
}

size_t CountTensors(const Type& type) {
  const TupleTypeNode* tuple = AsTupleType(type);
  if (tuple == nullptr) return 1;
  size_t count = 0;
  for (const Type& field : tuple->fields) count += CountTensors(field);
  return count;
}

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Executor::Executor(const Module& module, const BackendRegistry& registry, const ExecutorOptions& options)
    : state_(std::make_unique<State>()) {
  const Function& main = module.main();
  InferType(main);
  State& state = *state_;
  state.plan = BuildExecutionPlan(main);
  size_t next_argument = 0;
  for (const Var& param : main->params) {
    state.first_argument_of_parameter.push_back(next_argument);
    next_argument += CountTensors(param->checked_type());
    state.parameter_types.push_back(param->checked_type());
    state.parameter_names.push_back(param->name_hint);
  }

  std::vector<std::string> backend_of_step(state.plan.steps.size());
  CompileSteps(state.plan, registry, options, state.executables, backend_of_step);

  std::vector<size_t> activation_of_slot;
  const std::vector<BufferLifetime> lifetimes = ActivationLifetimes(state.plan, &activation_of_slot);
  state.memory = PlanMemory(lifetimes, Tensor::kAlignment);
  state.arena = Tensor::Zeros(DType::kU8, {static_cast<int64_t>(std::max<size_t>(state.memory.arena_bytes, 1))});
  auto* arena_bytes = static_cast<std::byte*>(state.arena.raw_data());
  state.slot_tensors.resize(state.plan.slots.size());
  for (size_t i = 0; i < state.plan.slots.size(); ++i) {
    const TensorSlot& slot = state.plan.slots[i];
    if (slot.source == TensorSlot::Source::kConstant) state.slot_tensors[i] = slot.constant;
    if (slot.source == TensorSlot::Source::kActivation) {
      state.slot_tensors[i] =
          Tensor::Borrow(slot.dtype, slot.PhysicalShape(), arena_bytes + state.memory.offsets[activation_of_slot[i]]);
    }
  }

  for (const ExecutionStep& step : state.plan.steps) {
    std::vector<Shape>& shapes = state.input_shapes.emplace_back();
    for (size_t slot : step.inputs) {
      const TensorSlot& source = state.plan.slots[slot];
      shapes.push_back(step.IsConversion() ? source.PhysicalShape() : PhysicalShape(source.shape, step.layouts.parameters));
    }
  }

  if (options.profile) {
    state.profiler = std::make_unique<Profiler>();
    for (size_t i = 0; i < state.plan.steps.size(); ++i) {
      const ExecutionStep& step = state.plan.steps[i];
      state.profile_index.push_back(
          state.profiler->Add({step.global_symbol, backend_of_step[i],
                               step.IsConversion() ? 0 : CountOpCalls(step.function)}));
    }
  }
}

Executor::~Executor() = default;

Value Executor::Run(const std::vector<Value>& arguments) {
  State& state = *state_;
  if (arguments.size() != state.parameter_types.size()) {
    throw Error("@main expects " + std::to_string(state.parameter_types.size()) + " arguments, got " +
                std::to_string(arguments.size()));
  }
  std::vector<Tensor> flat_arguments;
  for (size_t i = 0; i < arguments.size(); ++i) {
    const std::vector<Tensor> tensors = arguments[i].Flatten();
    const size_t first = state.first_argument_of_parameter[i];
    const size_t end = i + 1 < arguments.size() ? state.first_argument_of_parameter[i + 1] : state.plan.argument_types.size();
    bool matches = tensors.size() == end - first && arguments[i].is_tuple() == !AsTensorType(state.parameter_types[i]);
    for (size_t j = 0; matches && j < tensors.size(); ++j) {
      const TensorTypeNode* expected = AsTensorType(state.plan.argument_types[first + j]);
      matches = tensors[j].defined() && tensors[j].dtype() == expected->dtype && tensors[j].shape() == expected->shape;
    }
    if (!matches) {
      throw Error("argument for parameter %" + state.parameter_names[i] + ": expected " +
                  TypeToString(state.parameter_types[i]));
    }
    flat_arguments.insert(flat_arguments.end(), tensors.begin(), tensors.end());
  }
  for (size_t i = 0; i < state.plan.slots.size(); ++i) {
    if (state.plan.slots[i].source == TensorSlot::Source::kArgument) {
      state.slot_tensors[i] = flat_arguments[state.plan.slots[i].argument];
    }
  }

  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  for (size_t i = 0; i < state.plan.steps.size(); ++i) {
    const ExecutionStep& step = state.plan.steps[i];
    inputs.clear();
    outputs.clear();
    for (size_t j = 0; j < step.inputs.size(); ++j) {
      const Tensor& tensor = state.slot_tensors[step.inputs[j]];
      const Shape& expected = state.input_shapes[i][j];
      inputs.push_back(tensor.shape() == expected ? tensor : tensor.Reshaped(expected));
    }
    for (size_t slot : step.outputs) outputs.push_back(state.slot_tensors[slot]);
    const auto start = std::chrono::steady_clock::now();
    try {
      state.executables[i]->Run(inputs, outputs);
    } catch (const Error& error) {
      throw Error("partition " + step.global_symbol + " failed: " + error.what());
    }
    if (state.profiler) state.profiler->Record(state.profile_index[i], MillisecondsSince(start));
  }

  std::vector<Tensor> results;
  for (size_t slot : state.plan.results) {
    results.push_back(state.slot_tensors[slot].Clone().Reshaped(state.plan.slots[slot].shape));
  }
  for (size_t i = 0; i < state.plan.slots.size(); ++i) {
    if (state.plan.slots[i].source == TensorSlot::Source::kArgument) state.slot_tensors[i] = Tensor();
  }
  return Unflatten(state.plan.result_type, results);
}

const MemoryPlan& Executor::memory_plan() const { return state_->memory; }

size_t Executor::num_steps() const { return state_->plan.steps.size(); }

const Profiler* Executor::profiler() const { return state_->profiler.get(); }

void Executor::ClearProfile() {
  if (state_->profiler) state_->profiler->ClearSamples();
}

}  // namespace collage
