// Layouts and reorders while lowering a partition to oneDNN primitives.
//
// Every value of the flattened partition has a home memory: parameters and outputs are the
// caller's buffers (bound at each run, in the partition's boundary layout), constants wrap their tensor, results are the memory
// their primitive writes, usually in a blocked layout the primitive chose (format_tag::any).
// A consumer asks for a value in the layout it needs (Get); a reorder is added only when the
// value is not already there, once per (value, layout): for constants it runs right away at
// compile time (weights are reordered once), for run-time values it becomes a step. So data
// stays blocked between primitives and is converted at the partition's boundaries, or in the
// middle only where an op needs a plain layout.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/flat_partition.h"
#include "backend/onednn/concat_in_place.h"

namespace collage::onednn {

using dnnl::memory;

// One primitive execution with its arguments (DNNL_ARG_* -> memory).
struct Step {
  dnnl::primitive primitive;
  std::unordered_map<int, memory> args;
};

// A memory object whose data handle is a caller's tensor, set at every run.
struct ExternalBinding {
  memory target;
  bool is_input = true;
  int index = 0;  // parameter or output index
};

// Everything an executable needs: steps in order and the memories to bind per run.
struct Program {
  std::vector<Step> steps;
  std::vector<ExternalBinding> bindings;
  std::vector<memory> viewed;  // owners of the buffers that views share
  FlatPartition partition;     // keeps the constants' tensors alive
};

// The plain row-major descriptor of a tensor shape (a scalar is one element of shape (1)).
memory::desc PlainDesc(const Shape& shape);
memory::dims ToDims(const Shape& shape);
// The descriptor of a caller's buffer of that logical shape in `layout`.
memory::desc BoundaryDesc(const Shape& shape, Layout layout);

class Lowering {
 public:
  Lowering(FlatPartition partition, dnnl::engine engine);

  const FlatPartition& partition() const { return partition_; }
  const FlatValue& value(int id) const { return partition_.value(id); }
  const dnnl::engine& engine() const { return engine_; }
  [[noreturn]] void Fail(const std::string& reason) const;

  // The value's memory in its current (home) layout.
  memory Home(int id) const;
  // The value in layout `desc`, reordered when needed (see above).
  memory Get(int id, const memory::desc& desc);
  // The value in the plain row-major layout of its shape.
  memory GetPlain(int id) { return Get(id, PlainDesc(value(id).shape)); }
  // The value's plain data reinterpreted as `view` (same bytes: a reshape, a transposed
  // stride pattern), then reordered to `desc` (view itself when `desc` is empty).
  memory GetViewed(int id, const memory::desc& view, const memory::desc& desc = {});

  // How a product quantizes activation `id`: only in an int8 partition, for a parameter (whose
  // calibrated range the partition carries).
  std::optional<QuantizationParameters> ActivationQuantizationOf(int id) const;
  // Value `id` quantized by `parameters` into `desc` (of their integer type): a scaling reorder,
  // once per descriptor.
  memory GetQuantized(int id, const memory::desc& desc, const QuantizationParameters& parameters);

  // A memory sharing `source`'s data with another descriptor; bound per run like its source.
  memory View(const memory& source, const memory::desc& desc);

  // Declares that a step computes value `id` into a memory of `desc` and returns it. A result
  // in the boundary layout that is a partition output is written straight into the caller's
  // output buffer.
  memory Define(int id, const memory::desc& desc);
  // Declares that value `id` is `memory` (a view, or a result computed in place); `scratch`
  // when `memory` is a buffer of this program that only this value uses from now on.
  void Alias(int id, const memory& memory, bool scratch = false);
  // Whether value `id` lives in a buffer of this program that nothing else aliases (not a
  // caller's tensor, a constant or a view), so a primitive may overwrite it in place.
  bool IsScratch(int id) const { return scratch_.at(static_cast<size_t>(id)); }
  // A fresh memory of `desc` that a step fills with value `id` at every run.
  memory CopyOf(int id, const memory::desc& desc);

  // Concatenations in place (concat_in_place.h): the plan, set before lowering. Define then
  // computes a group's members straight into their slices of the group's buffer.
  void SetConcatPlan(const ConcatPlan& plan);
  // The group whose buffer concatenation result `id` is a view of, or -1.
  int ConcatGroupOfResult(int id) const;
  // The layout of member `id`'s slice of its group's buffer (allocating the buffer like
  // `chosen`, the layout its producer would pick, when it is not yet), for a producer that can
  // compute in it; none when `id` is no member or its group copies.
  std::optional<memory::desc> ConcatSliceLayout(int id, const memory::desc& chosen);
  // The first `members` members of `group` as one value: each member copied into its slice
  // unless it is there already, then the view of those slices. None when the group's buffer
  // cannot be laid out with contiguous slices (the concatenation then copies as usual).
  std::optional<memory> ConcatView(int group, size_t members);

  void AddStep(dnnl::primitive primitive, std::unordered_map<int, memory> args);
  const std::vector<Step>& steps() const { return steps_; }

  // Adds the final reorders into the output buffers and returns the program.
  Program Finish() &&;

 private:
  memory Reorder(memory source, const memory::desc& desc, bool at_compile_time);
  void CopyInto(const memory& source, const memory& target, bool at_compile_time);
  // Allocates `group`'s buffer once, in the layout of `like` (a member's or the result's), or
  // where that layout's channel slices are not contiguous (channels-last interleaves them), in
  // the channel blocks of oneDNN's jit kernels on this CPU; false when the slices are not
  // contiguous in that either, then and at every later call.
  bool AllocateConcatBuffer(int group, const memory::desc& like);
  // Member `id`'s slice of its group's buffer (allocated by now), or null.
  const memory* ConcatSliceOf(int id) const;
  // Member `id`'s slice when its group's buffer has one of layout `desc` (allocating the
  // buffer like `desc` first); an empty memory otherwise.
  memory ConcatSliceFor(int id, const memory::desc& desc);
  const ExternalBinding* FindBinding(const memory& memory) const;

  FlatPartition partition_;
  dnnl::engine engine_;
  std::vector<std::vector<memory>> layouts_;  // per value: home first, then reordered copies
  std::vector<ExternalBinding> bindings_;
  std::vector<memory> viewed_;         // see Program::viewed
  std::vector<bool> scratch_;         // per value: see IsScratch
  std::vector<bool> output_written_;  // per output index: computed in place
  std::vector<Step> steps_;

  // A concatenation group's buffer and its members' slices, once allocated.
  struct ConcatBuffer {
    ConcatGroup group;
    memory buffer;
    std::vector<memory> slices;
    bool unusable = false;
  };
  std::vector<ConcatBuffer> concat_buffers_;
  std::vector<int> concat_group_of_member_;  // per value: its group as a member, or -1
  std::vector<int> concat_group_of_result_;  // per value: the group it is a view of, or -1
};

}  // namespace collage::onednn
