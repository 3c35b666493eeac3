#include "backend/xnnpack/xnnpack_executable.h"

#include <cstring>

#include "backend/xnnpack/layout.h"
#include "backend/xnnpack/xnnpack_status.h"
#include "support/error.h"

namespace collage::xnnpack {
namespace {

size_t ElementCount(const Shape& shape) { return static_cast<size_t>(NumElements(shape)); }

}  // namespace

XnnpackExecutable::XnnpackExecutable(ThreadPool pool, StaticData static_data, Runtime runtime,
                                     std::vector<Shape> input_shapes, std::vector<OutputSource> outputs)
    : pool_(std::move(pool)),
      static_data_(std::move(static_data)),
      runtime_(std::move(runtime)),
      input_shapes_(std::move(input_shapes)),
      outputs_(std::move(outputs)) {
  for (const Shape& shape : input_shapes_) {
    input_staging_.emplace_back(ElementCount(shape) + XNN_EXTRA_BYTES / sizeof(float), 0.0f);
  }
  for (const OutputSource& output : outputs_) {
    const bool staged = output.kind == OutputSource::Kind::kComputed && output.shape.size() == 4;
    output_staging_.emplace_back(staged ? ElementCount(output.shape) : 0, 0.0f);
  }
}

void XnnpackExecutable::CheckBuffers(std::span<const Tensor> inputs, std::span<Tensor> outputs) const {
  if (inputs.size() != input_shapes_.size() || outputs.size() != outputs_.size()) {
    throw Error("xnnpack: expected " + std::to_string(input_shapes_.size()) + " inputs and " +
                std::to_string(outputs_.size()) + " outputs, got " + std::to_string(inputs.size()) + " and " +
                std::to_string(outputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].dtype() != DType::kF32 || inputs[i].shape() != input_shapes_[i]) {
      throw Error("xnnpack: input " + std::to_string(i) + " is not an f32 tensor of shape " +
                  ShapeToString(input_shapes_[i]));
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].dtype() != DType::kF32 || outputs[i].shape() != outputs_[i].shape) {
      throw Error("xnnpack: output " + std::to_string(i) + " is not an f32 tensor of shape " +
                  ShapeToString(outputs_[i].shape));
    }
  }
}

void XnnpackExecutable::Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) {
  CheckBuffers(inputs, outputs);
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<xnn_external_value> externals;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const float* source = inputs[i].data<float>();
    if (input_shapes_[i].size() == 4) {
      NchwToNhwc(source, input_staging_[i].data(), input_shapes_[i]);
    } else {
      std::memcpy(input_staging_[i].data(), source, inputs[i].NumBytes());
    }
    externals.push_back({static_cast<uint32_t>(i), input_staging_[i].data()});
  }
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (outputs_[i].kind != OutputSource::Kind::kComputed) continue;
    void* target = output_staging_[i].empty() ? outputs[i].raw_data() : output_staging_[i].data();
    externals.push_back({outputs_[i].external_id, target});
  }
  CheckStatus(xnn_setup_runtime(runtime_.get(), externals.size(), externals.data()), "xnn_setup_runtime");
  CheckStatus(xnn_invoke_runtime(runtime_.get()), "xnn_invoke_runtime");
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const OutputSource& source = outputs_[i];
    void* target = outputs[i].raw_data();
    switch (source.kind) {
      case OutputSource::Kind::kComputed:
        if (!output_staging_[i].empty()) NhwcToNchw(output_staging_[i].data(), outputs[i].data<float>(), source.shape);
        break;
      case OutputSource::Kind::kParameter:
        std::memcpy(target, inputs[source.index].raw_data(), outputs[i].NumBytes());
        break;
      case OutputSource::Kind::kConstant:
        std::memcpy(target, source.constant.raw_data(), outputs[i].NumBytes());
        break;
      case OutputSource::Kind::kSameAs:
        std::memcpy(target, outputs[source.index].raw_data(), outputs[i].NumBytes());
        break;
    }
  }
}

}  // namespace collage::xnnpack
