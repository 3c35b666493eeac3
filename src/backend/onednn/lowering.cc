#include "backend/onednn/lowering.h"

#include <algorithm>

#include "backend/onednn/layout_like.h"

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
  concat_group_of_member_.assign(partition_.values.size(), -1);
  concat_group_of_result_.assign(partition_.values.size(), -1);
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
  CopyInto(source, target, at_compile_time);
  return target;
}

void Lowering::CopyInto(const memory& source, const memory& target, bool at_compile_time) {
  dnnl::reorder reorder(source, target);
  if (at_compile_time) {
    dnnl::stream stream(engine_);
    reorder.execute(stream, {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, target}});
    stream.wait();
  } else {
    AddStep(reorder, {{DNNL_ARG_FROM, source}, {DNNL_ARG_TO, target}});
  }
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
  if (!result) result = ConcatSliceFor(id, desc);
  // Fresh memory is scratch; a caller's buffer is not, nor a concatenation slice, which the
  // group's views read after the value's own readers.
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

void Lowering::SetConcatPlan(const ConcatPlan& plan) {
  for (size_t g = 0; g < plan.groups.size(); ++g) {
    for (int member : plan.groups[g].members) concat_group_of_member_[static_cast<size_t>(member)] = static_cast<int>(g);
    concat_buffers_.push_back({plan.groups[g], memory(), {}, false});
  }
  for (size_t c = 0; c < plan.group_of_call.size(); ++c) {
    if (plan.group_of_call[c] >= 0) {
      concat_group_of_result_[static_cast<size_t>(partition_.calls[c].output)] = plan.group_of_call[c];
    }
  }
}

int Lowering::ConcatGroupOfResult(int id) const { return concat_group_of_result_.at(static_cast<size_t>(id)); }

bool Lowering::AllocateConcatBuffer(int group, const memory::desc& like) {
  ConcatBuffer& concat = concat_buffers_.at(static_cast<size_t>(group));
  if (concat.unusable) return false;
  if (concat.buffer) return true;
  const Shape& shape = concat.group.shape;
  std::optional<memory::desc> whole = LayoutLike(like, ToDims(shape));
  if (!whole || ContiguousChannelBlock(*whole) == 0) {
    whole = memory::desc(ToDims(shape), memory::data_type::f32, JitChannelBlockTag());
  }
  const int64_t block = ContiguousChannelBlock(*whole);
  int64_t offset = 0;
  for (size_t k = 0; k < concat.group.channels.size() && block > 0; ++k) {
    const bool last = k + 1 == concat.group.channels.size();
    if (offset % block != 0 || (!last && concat.group.channels[k] % block != 0)) concat.unusable = true;
    offset += concat.group.channels[k];
  }
  if (block == 0 || concat.unusable) {
    concat.unusable = true;
    return false;
  }
  concat.buffer = memory(*whole, engine_);
  viewed_.push_back(concat.buffer);
  char* base = static_cast<char*>(concat.buffer.get_data_handle());
  const int64_t plane_bytes = shape[2] * shape[3] * static_cast<int64_t>(sizeof(float));
  offset = 0;
  for (int64_t channels : concat.group.channels) {
    const memory::desc slice = *LayoutLike(*whole, {1, channels, shape[2], shape[3]});
    concat.slices.emplace_back(slice, engine_, base + offset * plane_bytes);
    offset += channels;
  }
  return true;
}

const memory* Lowering::ConcatSliceOf(int id) const {
  const int group = concat_group_of_member_.at(static_cast<size_t>(id));
  if (group < 0) return nullptr;
  const ConcatBuffer& concat = concat_buffers_[static_cast<size_t>(group)];
  if (!concat.buffer) return nullptr;
  const auto at = std::find(concat.group.members.begin(), concat.group.members.end(), id);
  return &concat.slices[static_cast<size_t>(at - concat.group.members.begin())];
}

memory Lowering::ConcatSliceFor(int id, const memory::desc& desc) {
  const int group = concat_group_of_member_.at(static_cast<size_t>(id));
  if (group < 0 || !AllocateConcatBuffer(group, desc)) return memory();
  const memory* slice = ConcatSliceOf(id);
  return slice->get_desc() == desc ? *slice : memory();
}

std::optional<memory::desc> Lowering::ConcatSliceLayout(int id, const memory::desc& chosen) {
  const int group = concat_group_of_member_.at(static_cast<size_t>(id));
  if (group < 0 || !AllocateConcatBuffer(group, chosen)) return std::nullopt;
  return ConcatSliceOf(id)->get_desc();
}

std::optional<memory> Lowering::ConcatView(int group, size_t members) {
  const ConcatBuffer& concat = concat_buffers_.at(static_cast<size_t>(group));
  if (!AllocateConcatBuffer(group, Home(concat.group.members.front()).get_desc())) return std::nullopt;
  int64_t channels = 0;
  for (size_t k = 0; k < members; ++k) {
    const int member = concat.group.members[k];
    const memory& slice = concat.slices[k];
    std::vector<memory>& layouts = layouts_.at(static_cast<size_t>(member));
    const bool there = std::any_of(layouts.begin(), layouts.end(), [&](const memory& layout) {
      return layout.get_data_handle() == slice.get_data_handle() && layout.get_desc() == slice.get_desc();
    });
    if (!there) {
      CopyInto(Home(member), slice, partition_.IsConstant(member));
      layouts.push_back(slice);
    }
    channels += concat.group.channels[k];
  }
  const Shape& shape = concat.group.shape;
  const memory::desc prefix = *LayoutLike(concat.buffer.get_desc(), {1, channels, shape[2], shape[3]});
  return memory(prefix, engine_, concat.buffer.get_data_handle());
}

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
