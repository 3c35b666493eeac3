// ONNX ops whose output shape depends on tensor values: Compress, NonZero, Unique and
// NonMaxSuppression.
//
// The IR is statically shaped, so these convert only when the values that decide the shape
// are known at import time (constants, or graph inputs bound by specialization); otherwise
// the import names the graph inputs to bind. Compress then becomes a take of the selected
// positions (its data may still be computed at run time); NonZero, Unique and
// NonMaxSuppression, whose every output depends on the decisive values, become constants.
#include <algorithm>
#include <map>
#include <numeric>

#include "frontend/onnx/onnx_converter_util.h"
#include "frontend/onnx/onnx_op_converters.h"
#include "op/element_access.h"
#include "support/shape.h"

namespace collage {
namespace {

Expr IndexVector(FoldingBuilder& builder, const std::vector<int64_t>& indices) {
  return builder.Constant(Tensor::FromVector(indices, {static_cast<int64_t>(indices.size())}));
}

std::vector<Expr> ConvertCompress(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  Expr data = node.Input(0, "input");
  const Tensor& condition = node.ConstantInput(1, "condition");
  if (condition.shape().size() != 1) {
    throw Error("input condition must be 1-D, got shape " + ShapeToString(condition.shape()));
  }
  int64_t axis = 0;
  if (node.HasAttr("axis")) {
    axis = NormalizeAxis(node.Int("axis", 0), node.InputRank(0), "attribute 'axis'");
  } else {
    data = builder.Call("reshape", {data}, {{"newshape", std::vector<int64_t>{-1}}});
  }
  const int64_t extent = TensorTypeOf(data).shape[static_cast<size_t>(axis)];
  if (condition.NumElements() > extent) {
    throw Error("input condition has " + std::to_string(condition.NumElements()) + " values for an axis of extent " +
                std::to_string(extent));
  }
  std::vector<int64_t> selected;
  for (int64_t i = 0; i < condition.NumElements(); ++i) {
    if (condition.GetAsDouble(i) != 0.0) selected.push_back(i);
  }
  return {builder.Call("take", {data, IndexVector(builder, selected)}, {{"axis", axis}})};
}

// [rank, count] i64: the coordinates of the non-zero elements in row-major order.
std::vector<Expr> ConvertNonZero(OnnxNode& node) {
  const Tensor& data = node.ConstantInput(0, "X");
  const Shape& shape = data.shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < data.NumElements(); ++i) {
    if (data.GetAsDouble(i) != 0.0) positions.push_back(i);
  }
  const int64_t count = static_cast<int64_t>(positions.size());
  Tensor coordinates = Tensor::Zeros(DType::kI64, {rank, count});
  for (int64_t k = 0; k < count; ++k) {
    int64_t remainder = positions[static_cast<size_t>(k)];
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t extent = shape[static_cast<size_t>(d)];
      coordinates.data<int64_t>()[d * count + k] = remainder % extent;
      remainder /= extent;
    }
  }
  return {node.builder().Constant(std::move(coordinates))};
}

// The slices of a constant along an axis, compared lexicographically by value.
class Slices {
 public:
  Slices(const Tensor& data, int64_t axis) : data_(data) {
    const Shape& shape = data.shape();
    count_ = shape[static_cast<size_t>(axis)];
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= shape[static_cast<size_t>(d)];
    inner_ = 1;
    for (size_t d = static_cast<size_t>(axis) + 1; d < shape.size(); ++d) inner_ *= shape[d];
  }

  int64_t count() const { return count_; }
  int64_t outer() const { return outer_; }
  int64_t inner() const { return inner_; }
  int64_t ElementIndex(int64_t slice, int64_t outer, int64_t inner) const {
    return (outer * count_ + slice) * inner_ + inner;
  }

  // <0, 0 or >0 as slice a orders before, equal to or after slice b.
  int Compare(int64_t a, int64_t b) const {
    for (int64_t o = 0; o < outer_; ++o) {
      for (int64_t i = 0; i < inner_; ++i) {
        const double x = data_.GetAsDouble(ElementIndex(a, o, i));
        const double y = data_.GetAsDouble(ElementIndex(b, o, i));
        if (x != y) return x < y ? -1 : 1;
      }
    }
    return 0;
  }

 private:
  const Tensor& data_;
  int64_t count_ = 0;
  int64_t outer_ = 1;
  int64_t inner_ = 1;
};

// Y, indices (first occurrences), inverse_indices and counts, as ONNX Unique: without an
// axis over the flattened elements, else over the slices along the axis; sorted ascending or
// in order of first occurrence.
std::vector<Expr> ConvertUnique(OnnxNode& node) {
  FoldingBuilder& builder = node.builder();
  const Tensor& input = node.ConstantInput(0, "X");
  const bool has_axis = node.HasAttr("axis");
  const Tensor data = has_axis ? input : input.Reshaped({input.NumElements()});
  const int64_t axis =
      has_axis ? NormalizeAxis(node.Int("axis", 0), static_cast<int64_t>(input.shape().size()), "attribute 'axis'") : 0;
  if (data.dtype() == DType::kU64) throw Error("input X of dtype u64 is not supported");
  const Slices slices(data, axis);

  std::vector<int64_t> first_occurrences;  // the unique slices, as their first index
  std::vector<int64_t> inverse(static_cast<size_t>(slices.count()));
  for (int64_t s = 0; s < slices.count(); ++s) {
    auto found = std::find_if(first_occurrences.begin(), first_occurrences.end(),
                              [&](int64_t unique) { return slices.Compare(unique, s) == 0; });
    if (found == first_occurrences.end()) {
      first_occurrences.push_back(s);
      found = first_occurrences.end() - 1;
    }
    inverse[static_cast<size_t>(s)] = found - first_occurrences.begin();
  }
  std::vector<int64_t> order(first_occurrences.size());
  std::iota(order.begin(), order.end(), 0);
  if (node.Int("sorted", 1) != 0) {
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return slices.Compare(first_occurrences[static_cast<size_t>(a)], first_occurrences[static_cast<size_t>(b)]) < 0;
    });
  }
  std::vector<int64_t> rank_of(order.size());
  for (size_t r = 0; r < order.size(); ++r) rank_of[static_cast<size_t>(order[r])] = static_cast<int64_t>(r);

  const int64_t unique_count = static_cast<int64_t>(order.size());
  std::vector<int64_t> indices;
  std::vector<int64_t> counts(order.size(), 0);
  for (int64_t unique : order) indices.push_back(first_occurrences[static_cast<size_t>(unique)]);
  for (int64_t& position : inverse) {
    position = rank_of[static_cast<size_t>(position)];
    ++counts[static_cast<size_t>(position)];
  }
  Shape y_shape = data.shape();
  y_shape[static_cast<size_t>(axis)] = unique_count;
  Tensor y = Tensor::Zeros(data.dtype(), y_shape);
  for (int64_t u = 0; u < unique_count; ++u) {
    for (int64_t o = 0; o < slices.outer(); ++o) {
      for (int64_t i = 0; i < slices.inner(); ++i) {
        CopyElement(data, slices.ElementIndex(indices[static_cast<size_t>(u)], o, i), y,
                         (o * unique_count + u) * slices.inner() + i);
      }
    }
  }
  return {builder.Constant(std::move(y)), IndexVector(builder, indices), IndexVector(builder, inverse),
          IndexVector(builder, counts)};
}

// One box as its corners, y1 <= y2 and x1 <= x2.
struct Box {
  double y1;
  double x1;
  double y2;
  double x2;

  double Area() const { return (y2 - y1) * (x2 - x1); }
};

Box BoxAt(const Tensor& boxes, int64_t first, bool center_point) {
  const double a = boxes.GetAsDouble(first);
  const double b = boxes.GetAsDouble(first + 1);
  const double c = boxes.GetAsDouble(first + 2);
  const double d = boxes.GetAsDouble(first + 3);
  if (center_point) return {b - d / 2.0, a - c / 2.0, b + d / 2.0, a + c / 2.0};  // [x, y, width, height]
  return {std::min(a, c), std::min(b, d), std::max(a, c), std::max(b, d)};       // [y1, x1, y2, x2]
}

double IntersectionOverUnion(const Box& first, const Box& second) {
  const double height = std::min(first.y2, second.y2) - std::max(first.y1, second.y1);
  const double width = std::min(first.x2, second.x2) - std::max(first.x1, second.x1);
  if (height <= 0.0 || width <= 0.0) return 0.0;
  const double intersection = height * width;
  const double union_area = first.Area() + second.Area() - intersection;
  return union_area > 0.0 ? intersection / union_area : 0.0;
}

// [selected, 3] i64 rows (batch, class, box): per batch and class, boxes by descending score
// (ties by index) above score_threshold, each kept unless its IoU with a kept box exceeds
// iou_threshold, at most max_output_boxes_per_class of them.
std::vector<Expr> ConvertNonMaxSuppression(OnnxNode& node) {
  const Tensor& boxes = node.ConstantInput(0, "boxes");
  const Tensor& scores = node.ConstantInput(1, "scores");
  if (boxes.shape().size() != 3 || boxes.shape()[2] != 4 || scores.shape().size() != 3 ||
      scores.shape()[0] != boxes.shape()[0] || scores.shape()[2] != boxes.shape()[1]) {
    throw Error("boxes must be [batches, boxes, 4] and scores [batches, classes, boxes], got " +
                ShapeToString(boxes.shape()) + " and " + ShapeToString(scores.shape()));
  }
  const int64_t max_per_class = node.HasInput(2) ? node.IntScalarInput(2, "max_output_boxes_per_class") : 0;
  const double iou_threshold = node.HasInput(3) ? node.ScalarInput(3, "iou_threshold") : 0.0;
  const bool has_score_threshold = node.HasInput(4);
  const double score_threshold = has_score_threshold ? node.ScalarInput(4, "score_threshold") : 0.0;
  const bool center_point = node.Int("center_point_box", 0) != 0;
  const int64_t batches = boxes.shape()[0];
  const int64_t count = boxes.shape()[1];
  const int64_t classes = scores.shape()[1];
  std::vector<int64_t> rows;
  for (int64_t batch = 0; batch < batches; ++batch) {
    for (int64_t klass = 0; klass < classes; ++klass) {
      auto score = [&](int64_t box) { return scores.GetAsDouble((batch * classes + klass) * count + box); };
      std::vector<int64_t> candidates;
      for (int64_t box = 0; box < count; ++box) {
        if (!has_score_threshold || score(box) > score_threshold) candidates.push_back(box);
      }
      std::stable_sort(candidates.begin(), candidates.end(), [&](int64_t a, int64_t b) { return score(a) > score(b); });
      std::vector<int64_t> kept;
      for (int64_t box : candidates) {
        if (static_cast<int64_t>(kept.size()) >= max_per_class) break;
        const Box candidate = BoxAt(boxes, (batch * count + box) * 4, center_point);
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int64_t other) {
          return IntersectionOverUnion(candidate, BoxAt(boxes, (batch * count + other) * 4, center_point)) > iou_threshold;
        });
        if (!suppressed) kept.push_back(box);
      }
      for (int64_t box : kept) rows.insert(rows.end(), {batch, klass, box});
    }
  }
  const int64_t selected = static_cast<int64_t>(rows.size()) / 3;
  return {node.builder().Constant(Tensor::FromVector(rows, {selected, 3}))};
}

}  // namespace

void RegisterDataDependentConverters(OnnxConverterTable& table) {
  table.Add("NonMaxSuppression", ConvertNonMaxSuppression);
  table.Add("Compress", ConvertCompress);
  table.Add("NonZero", ConvertNonZero);
  table.Add("Unique", ConvertUnique);
}

}  // namespace collage
