// The backend interface: every way of running a partition, from the reference
// interpreter to operator libraries, graph runtimes and code generators, is a Backend.
//
// A backend is identified by a name, a kind and a device; declares what it supports
// (SupportDeclaration: op predicates, a pattern table, FuseOps-style fusion) and how fast it
// is for the analytic cost model (BackendPerformance); and compiles a partition function
// into an Executable, or throws an Error that says why it cannot (the search then treats the
// candidate as Invalid). The core never names a backend: backends register themselves in
// backend/all_backends.cc, one line each.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/backend_performance.h"
#include "declaration/support_declaration.h"
#include "ir/expr.h"
#include "support/tensor.h"

namespace collage {

enum class BackendKind {
  kInterpreter,    // the reference interpreter: every op, slow, the correctness oracle
  kLibrary,        // an operator library called op by op (oneDNN, OpenBLAS)
  kGraphRuntime,   // a runtime given a whole sub-graph to optimize (XNNPACK subgraphs)
  kCodeGenerator,  // generates fused kernels for any FuseOps-style group (native)
};
const char* BackendKindName(BackendKind kind);

enum class Device { kCpu, kCuda };
const char* DeviceName(Device device);

struct CompileOptions {
  // Worker threads the executable may use; every backend honours it.
  int threads = 1;
  // A folder for on-disk caches (generated code, shared objects); empty: the backend's default.
  std::string cache_dir;
};

// A compiled partition. Inputs are one tensor per parameter of the compiled function, in
// order (tuple parameters are not allowed); outputs are preallocated tensors, one per tensor
// of the function's result with tuples flattened, of the declared dtypes, with the shapes of
// the function's boundary layout (backend/boundary_layout.h). Run may
// be called any number of times, with different buffers each time; it throws Error on
// failure and never keeps references to the tensors after it returns.
class Executable {
 public:
  virtual ~Executable() = default;
  virtual void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) = 0;
};

// An environment variable a backend's library reads once, when the process loads it.
struct LoadTimeSetting {
  std::string name;
  std::string value;
};

// A compiled executable or the reason a function could not be compiled.
struct CompileResult {
  std::unique_ptr<Executable> executable;  // null on failure
  std::string error;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  virtual BackendKind kind() const = 0;
  virtual Device device() const { return Device::kCpu; }
  // Part of every measured cost's key: change it when the generated code or the library changes.
  virtual std::string version() const = 0;
  // True when Compile accepts every type-checked function whose body is op calls (any op,
  // any shapes), tuples, projections, constants and calls to nested Primitive functions. Such
  // a backend can be the universal fallback that runs whatever no chosen backend takes.
  virtual bool runs_every_op() const { return false; }
  // True when the backend optimizes across the ops of one partition (a graph runtime's
  // scheduling, a library's blocked layouts kept between the ops of a partition), so that one
  // partition over a region can beat the region's ops in separate partitions although their
  // isolated costs say otherwise. The graph-level search offers such backends whole regions.
  virtual bool optimizes_across_ops() const { return kind() == BackendKind::kGraphRuntime; }
  // True when Compile treats a call to a Composite function exactly as the ops of its body:
  // the pattern labels only steer partitioning. Two partitions of this backend that differ
  // only in their Composite wrapping then compile to the same kernels, and whole-model
  // benchmarks time them as one placement.
  virtual bool composites_are_only_labels() const { return false; }

  // The settings under which the backend's library leaves no thread polling for work once a
  // run is over (its pool's workers sleep at once or within microseconds). Inside a model,
  // partitions of different backends alternate, and a pool still polling takes cores from the
  // next one. Processes that run partitions apply them before the libraries load
  // (backend/load_time_environment.h); a variable the user has set is left as it is.
  virtual std::vector<LoadTimeSetting> LoadTimeEnvironment() const { return {}; }

  virtual SupportDeclaration Support() const = 0;
  virtual BackendPerformance Performance() const = 0;

  // Compiles a type-checked partition function (usually Primitive=1, Compiler=name(), maybe
  // calling Composite functions of this backend's pattern table). Throws Error with a one-line
  // reason when the backend cannot run it.
  virtual std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const = 0;

  // Compiles many functions; result i belongs to functions[i]. Code generators override it to
  // batch compiler invocations; the default compiles one by one, catching each Error.
  virtual std::vector<CompileResult> CompileAll(const std::vector<Function>& functions,
                                                const CompileOptions& options) const;
};

using BackendPtr = std::shared_ptr<const Backend>;

// The backends available in this build, by name.
class BackendRegistry {
 public:
  // The registry holding every backend of this build (built on first use); defined by the
  // layer that knows them all, all_backends/.
  static const BackendRegistry& Global();

  // Throws Error when a backend of that name is already registered.
  void Register(BackendPtr backend);
  // Null when there is none.
  BackendPtr Find(const std::string& name) const;
  // Throws Error naming the available backends when there is none.
  BackendPtr Get(const std::string& name) const;
  // In registration order.
  const std::vector<BackendPtr>& All() const { return backends_; }
  std::vector<std::string> Names() const;
  // The backend that runs what no chosen backend takes: the first registered backend that
  // runs every op and is not an interpreter, else the first that runs every op; throws Error
  // when no backend runs every op.
  BackendPtr UniversalFallback() const;

 private:
  std::vector<BackendPtr> backends_;
};

}  // namespace collage
