#include "runtime/layout_conversion_executable.h"

#include "support/error.h"
#include "support/layout_conversion.h"

namespace collage {
namespace {

class LayoutConversionExecutable final : public Executable {
 public:
  LayoutConversionExecutable(Shape logical, Layout from, Layout to)
      : logical_(std::move(logical)), from_(from), to_(to) {}

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    Check(inputs.size() == 1 && outputs.size() == 1, "a layout conversion takes one input and gives one output");
    ConvertLayout(inputs[0], from_, outputs[0], to_, logical_);
  }

 private:
  Shape logical_;
  Layout from_;
  Layout to_;
};

}  // namespace

std::unique_ptr<Executable> MakeLayoutConversionExecutable(Shape logical, Layout from, Layout to) {
  return std::make_unique<LayoutConversionExecutable>(std::move(logical), from, to);
}

}  // namespace collage
