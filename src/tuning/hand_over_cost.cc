#include "tuning/hand_over_cost.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "interpreter/interpreter.h"
#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "runtime/invoke_executable.h"
#include "support/error.h"
#include "support/statistics.h"
#include "tuning/device_value.h"
#include "tuning/measurement.h"

namespace collage {
namespace {

// Bumped when the probes or the protocol change, so older measurements are not reused.
constexpr const char* kHandOverProbeVersion = "1";

Function WrapAsPartition(const std::vector<Var>& params, Expr body, const Backend& backend) {
  Attrs attrs;
  attrs.Set(attr::kPrimitive, int64_t{1});
  attrs.Set(attr::kCompiler, backend.name());
  Function function = MakeFunction(params, std::move(body), std::move(attrs));
  InferType(function);
  return function;
}

Function ConvolutionProbe(const Backend& backend) {
  const Var image = MakeVar("image", TensorType(DType::kF32, {1, 32, 28, 28}));
  const Constant weights = MakeConstant(Tensor::Random(DType::kF32, {32, 32, 3, 3}, /*seed=*/7, -0.1, 0.1));
  const Expr convolution =
      CallOp("nn.conv2d", {image, weights}, Attrs{{"padding", std::vector<int64_t>{1, 1, 1, 1}}});
  return WrapAsPartition({image}, CallOp("nn.relu", {convolution}), backend);
}

Function DenseProbe(const Backend& backend) {
  const Var rows = MakeVar("rows", TensorType(DType::kF32, {64, 256}));
  const Constant weights = MakeConstant(Tensor::Random(DType::kF32, {256, 256}, /*seed=*/7, -0.1, 0.1));
  return WrapAsPartition({rows}, CallOp("nn.dense", {rows, weights}), backend);
}

// A probe compiled with its inputs and outputs.
struct CompiledProbe {
  Function function;
  std::unique_ptr<Executable> executable;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  void Run() { executable->Run(inputs, outputs); }
};

// The first probe `backend` compiles, compiled once; nullopt when it compiles none.
std::optional<CompiledProbe> CompileProbe(const Backend& backend, const CompileOptions& options) {
  for (Function (*make)(const Backend&) : {DenseProbe, ConvolutionProbe}) {
    Function probe = make(backend);
    std::unique_ptr<Executable> executable;
    try {
      executable = backend.Compile(probe, options);
    } catch (const Error&) {
      continue;
    }
    CompiledProbe compiled{probe, std::move(executable), {}, AllocateResults(probe)};
    for (const Value& argument : RandomArguments(probe, /*seed=*/1)) compiled.inputs.push_back(argument.tensor());
    return compiled;
  }
  return std::nullopt;
}

double Median(std::vector<double> samples) { return Summarize(samples).median; }

}  // namespace

double HandOverMeasurement::seconds() const {
  return std::max(0.0, ConsumerAfterProducer() - ConsumerAfterItself());
}

std::optional<Function> HandOverProbe(const Backend& backend, const CompileOptions& options) {
  std::optional<CompiledProbe> compiled = CompileProbe(backend, options);
  if (!compiled) return std::nullopt;
  return compiled->function;
}

namespace {

// MeasureHandOver, or nullopt when either backend compiles no probe.
std::optional<HandOverMeasurement> MeasureProbes(const Backend& producer, const Backend& consumer,
                                                 const CompileOptions& options, int rounds) {
  Check(rounds >= 1, "MeasureHandOver: expected at least one round");
  std::optional<CompiledProbe> first = CompileProbe(producer, options);
  std::optional<CompiledProbe> second = CompileProbe(consumer, options);
  if (!first || !second) return std::nullopt;
  MeasurementOptions cool_down;
  SetInModelCoolDown(cool_down);
  cool_down.warmup_runs = 1;
  cool_down.min_runs = 1;
  cool_down.max_runs = 1;
  auto time_once = [&](const std::function<void()>& run) { return MeasureRepeatedly(run, cool_down).median_seconds; };
  const std::function<void()> variants[] = {[&] { first->Run(); }, [&] { second->Run(); },
                                            [&] {
                                              first->Run();
                                              second->Run();
                                            },
                                            [&] {
                                              second->Run();
                                              second->Run();
                                            }};
  constexpr int kVariants = 4;
  std::vector<double> samples[kVariants];
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < kVariants; ++i) {
      const int variant = (round + i) % kVariants;  // each variant takes each position in turn
      samples[variant].push_back(time_once(variants[variant]));
    }
  }
  return HandOverMeasurement{Median(samples[0]), Median(samples[1]), Median(samples[2]), Median(samples[3])};
}

}  // namespace

HandOverMeasurement MeasureHandOver(const Backend& producer, const Backend& consumer, const CompileOptions& options,
                                    int rounds) {
  const std::optional<HandOverMeasurement> measured = MeasureProbes(producer, consumer, options, rounds);
  if (!measured) {
    throw Error("hand-over measurement: backend '" + producer.name() + "' or '" + consumer.name() +
                "' compiles no probe partition");
  }
  return *measured;
}

double MeasuredHandOverCosts::Seconds(const std::string& producer, const std::string& consumer) {
  if (producer == consumer) return 0;
  const auto key = std::make_pair(producer, consumer);
  if (auto found = known_.find(key); found != known_.end()) return found->second;
  const BackendPtr from = registry_->Get(producer);
  const BackendPtr to = registry_->Get(consumer);
  const std::string name = std::string("partition_hand_over_seconds v") + kHandOverProbeVersion + " " + producer +
                           "@" + from->version() + "->" + consumer + "@" + to->version() + " threads " +
                           std::to_string(threads_);
  const double seconds = RecallDeviceValue(database_, name, [&] {
    if (from->kind() == BackendKind::kInterpreter || to->kind() == BackendKind::kInterpreter) return 0.0;
    CompileOptions options;
    options.threads = threads_;
    const std::optional<HandOverMeasurement> measured = MeasureProbes(*from, *to, options, rounds_);
    return measured ? measured->seconds() : 0.0;
  });
  known_.emplace(key, seconds);
  return seconds;
}

}  // namespace collage
