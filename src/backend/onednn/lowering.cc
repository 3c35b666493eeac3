#include "backend/onednn/lowering.h"

#include <algorithm>

namespace collage::onednn {

memory::dims ToDims(const Shape& shape) {
  if (shape.empty()) return {1};
  return memory::dims(shape.begin(), shape.end());
}

memory::desc PlainDesc(const Shape& shape) {
  const memory::dims dims = ToDims(shape);
  memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * std::max<memory::dim>(dims[i], 1);
  return memory::desc(dims, memory::data_type::f32, strides);
}

memory::desc BoundaryDesc(const Shape& shape, Layout layout) {
  if (shape.size() != 4) return PlainDesc(shape);
  switch (layout) {
    case Layout::kChannelsLast:
      return memory::desc(ToDims(shape), memory::data_type::f32, memory::format_tag::acdb);
    case Layout::kChannelBlocked8:
      return memory::desc(ToDims(shape), memory::data_type::f32, memory::format_tag::aBcd8b);
    case Layout::kChannelBlocked16:
      return memory::desc(ToDims(shape), memory::data_type::f32, memory::format_tag::aBcd16b);
    case Layout::kPlain:
      break;
  }
  return PlainDesc(shape);
}

Lowering::Lowering(FlatPartition partition, dnnl::engine engine)
    : partition_(std::move(partition)), engine_(std::move(engine)) {
  layouts_.resize(partition_.values.size());
  output_written_.assign(partition_.outputs.size(), false);
  scratch_.assign(partition_.values.size(), false);
  for (size_t id = 0; id < partition_.values.size(); ++id) {
    const FlatValue& flat = partition_.values[id];
    if (flat.source == FlatValue::Source::kCall) continue;
    if (flat.dtype != DType::kF32) {
      Fail(std::string(flat.source == FlatValue::Source::kConstant ? "a constant" : "a parameter") + " of dtype " +
           std::string(DTypeName(flat.dtype)) + " (only f32 is supported)");
    }
    if (flat.source == FlatValue::Source::kParameter) {
      memory input(BoundaryDesc(flat.shape, partition_.boundary_layouts.parameters), engine_, DNNL_MEMORY_NONE);
      bindings_.push_back({input, true, flat.parameter_index});
      layouts_[id] = {input};
    } else {
      // Constants are never written; oneDNN takes a non-const handle.
      layouts_[id] = {memory(PlainDesc(flat.shape), engine_, const_cast<void*>(flat.constant.raw_data()))};
    }
  }
}

void Lowering::Fail(const std::string& reason) const { throw Error("onednn: " + reason); }

memory Lowering::Home(int id) const {
  const std::vector<memory>& layouts = layouts_.at(static_cast<size_t>(id));
  if (layouts.empty()) Fail("internal: value " + std::to_string(id) + " is used before it is computed");
  return layouts.front();
}

memory Lowering::Reorder(memory source, const memory::desc& desc, bool at_compile_time) {
  memory target(desc, engine_);
  dnnl::reorder reorder(source, target);
  if (at_compile_time) {
    dnnl::stream stream(engine_);
    reorder.execute(stream, source, target);
    stream.wait();
  } else {
    AddStep(reorder, {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, target}});
  }
  return target;
}

memory Lowering::Get(int id, const memory::desc& desc) {
  for (const memory& layout : layouts_.at(static_cast<size_t>(id))) {
    if (layout.get_desc() == desc) return layout;
  }
  memory reordered = Reorder(Home(id), desc, partition_.IsConstant(id));
  layouts_[id].push_back(reordered);
  return reordered;
}

memory Lowering::GetViewed(int id, const memory::desc& view, const memory::desc& desc) {
  memory viewed = View(GetPlain(id), view);
  if (desc.is_zero() || viewed.get_desc() == desc) return viewed;
  return Reorder(viewed, desc, partition_.IsConstant(id));
}

std::optional<QuantizationParameters> Lowering::ActivationQuantizationOf(int id) const {
  if (partition_.precision != DType::kI8 || value(id).source != FlatValue::Source::kParameter) return std::nullopt;
  return ActivationQuantization(partition_.parameter_ranges.at(static_cast<size_t>(value(id).parameter_index)));
}

memory Lowering::GetQuantized(int id, const memory::desc& desc, const QuantizationParameters& parameters) {
  for (const memory& layout : layouts_.at(static_cast<size_t>(id))) {
    if (layout.get_desc() == desc) return layout;
  }
  const memory source = Home(id);
  memory target(desc, engine_);
  dnnl::primitive_attr attr;
  attr.set_output_scales(0, {1.0f / parameters.scale});
  const dnnl::reorder::primitive_desc description(engine_, source.get_desc(), engine_, desc, attr);
  AddStep(dnnl::reorder(description), {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, target}});
  layouts_[id].push_back(target);
  return target;
}

const ExternalBinding* Lowering::FindBinding(const memory& target) const {
  for (const ExternalBinding& binding : bindings_) {
    if (binding.target.get() == target.get()) return &binding;
  }
  return nullptr;
}

memory Lowering::View(const memory& source, const memory::desc& desc) {
  memory view(desc, engine_, source.get_data_handle());
  viewed_.push_back(source);  // a view does not own its buffer
  if (const ExternalBinding* binding = FindBinding(source)) {
    const ExternalBinding bound_view{view, binding->is_input, binding->index};
    bindings_.push_back(bound_view);
  }
  return view;
}

memory Lowering::Define(int id, const memory::desc& desc) {
  memory result;
  if (desc == BoundaryDesc(value(id).shape, partition_.boundary_layouts.results)) {
    for (size_t j = 0; j < partition_.outputs.size(); ++j) {
      if (partition_.outputs[j] != id || output_written_[j]) continue;
      result = memory(desc, engine_, DNNL_MEMORY_NONE);
      bindings_.push_back({result, false, static_cast<int>(j)});
      output_written_[j] = true;
      break;
    }
  }
  scratch_.at(static_cast<size_t>(id)) = !result;
  if (!result) result = memory(desc, engine_);
  layouts_.at(static_cast<size_t>(id)) = {result};
  return result;
}

void Lowering::Alias(int id, const memory& target, bool scratch) {
  layouts_.at(static_cast<size_t>(id)) = {target};
  scratch_.at(static_cast<size_t>(id)) = scratch;
}

memory Lowering::CopyOf(int id, const memory::desc& desc) { return Reorder(Home(id), desc, /*at_compile_time=*/false); }

void Lowering::AddStep(dnnl::primitive primitive, std::unordered_map<int, memory> args) {
  steps_.push_back({std::move(primitive), std::move(args)});
}

Program Lowering::Finish() && {
  for (size_t j = 0; j < partition_.outputs.size(); ++j) {
    if (output_written_[j]) continue;
    const int id = partition_.outputs[j];
    memory output(BoundaryDesc(value(id).shape, partition_.boundary_layouts.results), engine_, DNNL_MEMORY_NONE);
    bindings_.push_back({output, false, static_cast<int>(j)});
    const memory source = Home(id);
    AddStep(dnnl::reorder(source, output), {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, output}});
  }
  return Program{std::move(steps_), std::move(bindings_), std::move(viewed_), std::move(partition_)};
}

}  // namespace collage::onednn
