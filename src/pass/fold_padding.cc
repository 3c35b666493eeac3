// FoldPadding: explicit padding that a window op can do itself.
//
//   nn.pad(x) with every width 0                                ->  x
//   nn.conv2d(nn.pad(x, zeros on H and W), ...)                 ->  nn.conv2d(x, ..., padding + widths)
//   nn.avg_pool2d(nn.pad(x, zeros on H and W), ...)             ->  nn.avg_pool2d(x, ..., padding + widths,
//                                                                   count_include_pad=1)
//
// The pad must be "constant" with value 0 and non-negative widths on the two spatial axes only.
// A convolution pads with zeros anyway; an average pool counts the explicit zeros in every
// window, which count_include_pad does for its own padding too, so the pool folds only when
// its own padding (if any) is counted as well and without ceil_mode (whose last, partial
// window treats the two kinds of padding differently). The pad stays where it has other users.
// Exporters emit such pads (torch's average pools with count_include_pad; zero-width pads
// before DenseNet's transition pools); left alone, each splits a backend's partition.
#include <algorithm>
#include <optional>

#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "pass/standard_passes.h"

namespace collage {
namespace {

bool AllZero(const std::vector<int64_t>& values) {
  return std::all_of(values.begin(), values.end(), [](int64_t value) { return value == 0; });
}

// The spatial widths [top, left, bottom, right] of a zero pad of NCHW data, or nullopt.
std::optional<std::vector<int64_t>> SpatialZeroPad(const CallNode& pad) {
  const std::vector<int64_t>& widths = pad.attrs.GetInts("pad_width");
  if (widths.size() != 8 || pad.attrs.GetString("mode") != "constant" || pad.attrs.GetFloat("pad_value") != 0.0) {
    return std::nullopt;
  }
  // ONNX order: [N, C, H, W begins, N, C, H, W ends].
  if (widths[0] != 0 || widths[1] != 0 || widths[4] != 0 || widths[5] != 0) return std::nullopt;
  const std::vector<int64_t> spatial = {widths[2], widths[3], widths[6], widths[7]};
  if (std::any_of(spatial.begin(), spatial.end(), [](int64_t width) { return width < 0; })) return std::nullopt;
  return spatial;
}

class PaddingFolder : public ExprMutator {
 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    if (AsCallOf(post, "nn.pad") && AllZero(post->attrs.GetInts("pad_width"))) return post->args[0];
    const bool is_convolution = AsCallOf(post, "nn.conv2d") != nullptr;
    const bool is_average_pool = AsCallOf(post, "nn.avg_pool2d") != nullptr;
    if (!is_convolution && !is_average_pool) return post;
    const CallNode* pad = AsCallOf(post->args[0], "nn.pad");
    if (pad == nullptr) return post;
    const std::optional<std::vector<int64_t>> widths = SpatialZeroPad(*pad);
    if (!widths) return post;
    if (is_average_pool && (post->attrs.GetInt("ceil_mode") != 0 ||
                            (post->attrs.GetInt("count_include_pad") == 0 &&
                             !AllZero(post->attrs.GetInts("padding"))))) {
      return post;
    }
    Attrs attrs = post->attrs;
    std::vector<int64_t> padding = attrs.GetInts("padding");
    for (size_t i = 0; i < padding.size(); ++i) padding[i] += (*widths)[i];
    attrs.Set("padding", padding);
    if (is_average_pool) attrs.Set("count_include_pad", int64_t{1});
    std::vector<Expr> args = post->args;
    args[0] = pad->args[0];
    return CallOp(post->op()->name, std::move(args), std::move(attrs));
  }
};

}  // namespace

Pass FoldPadding() {
  return Pass::FunctionPass({"FoldPadding", 0}, [](const Function& function, const Module&, const PassContext&) {
    Function folded = Downcast<FunctionNode>(PaddingFolder().Mutate(function));
    InferType(folded);
    return folded;
  });
}

}  // namespace collage
