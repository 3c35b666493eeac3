#include "api/recording_backend.h"

#include "backend/reference/reference_backend.h"

namespace collage::testing {
namespace {

class RecordingExecutable final : public Executable {
 public:
  explicit RecordingExecutable(std::unique_ptr<Executable> reference) : reference_(std::move(reference)) {}
  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    LastRecording().input_addresses.clear();
    for (const Tensor& input : inputs) LastRecording().input_addresses.push_back(input.raw_data());
    reference_->Run(inputs, outputs);
  }

 private:
  std::unique_ptr<Executable> reference_;
};

class TestBackend final : public Backend {
 public:
  TestBackend(std::string name, bool fails) : name_(std::move(name)), fails_(fails) {}
  std::string name() const override { return name_; }
  BackendKind kind() const override { return BackendKind::kLibrary; }
  std::string version() const override { return "test"; }
  bool runs_every_op() const override { return true; }
  SupportDeclaration Support() const override {
    SupportDeclaration declaration;
    declaration.backend = name_;
    declaration.supports_op = [](const CallNode&) { return true; };
    return declaration;
  }
  BackendPerformance Performance() const override { return {}; }
  std::unique_ptr<Executable> Compile(const Function& function, const CompileOptions& options) const override {
    if (fails_) throw Error(name_ + ": refuses to compile anything");
    LastRecording().compiled_threads = options.threads;
    return std::make_unique<RecordingExecutable>(ReferenceBackend().Compile(function, options));
  }

 private:
  std::string name_;
  bool fails_;
};

}  // namespace

Recording& LastRecording() {
  static Recording recording;
  return recording;
}

BackendPtr MakeRecordingBackend() { return std::make_shared<TestBackend>("recording", false); }
BackendPtr MakeFailingBackend() { return std::make_shared<TestBackend>("failing", true); }

}  // namespace collage::testing
