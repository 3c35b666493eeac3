#include "backend/sink_transposes.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "backend/boundary_layout.h"
#include "ir/op_registry.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "op/transpose_permutation.h"

namespace collage {
namespace {

// A transpose's permutation, explicit and non-negative; nullopt when `axes` is empty and the
// rank unknown.
std::optional<std::vector<int64_t>> PermutationOf(const CallNode& transpose) {
  const std::vector<int64_t>& axes = transpose.attrs.GetInts("axes");
  const TensorTypeNode* data = AsTensorType(transpose.args[0]->checked_type());
  if (axes.empty() && data == nullptr) return std::nullopt;
  return TransposePermutation(static_cast<int64_t>(axes.empty() ? data->shape.size() : axes.size()), axes);
}

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// Element-wise and broadcasting ops whose attributes hold no axis or shape: permuting every
// operand's axes alike permutes the result's.
bool CommutesWithTranspose(const OpDef& op) {
  if (op.pattern_kind != OpPatternKind::kElemWise && op.pattern_kind != OpPatternKind::kBroadcast) return false;
  return std::none_of(op.attrs.begin(), op.attrs.end(), [](const AttrSpec& attr) {
    return attr.kind == AttrKind::kInt || attr.kind == AttrKind::kInts;
  });
}

bool HoldsOneValue(const Type& type) {
  const TensorTypeNode* tensor = AsTensorType(type);
  return tensor != nullptr &&
         std::all_of(tensor->shape.begin(), tensor->shape.end(), [](int64_t extent) { return extent == 1; });
}

class TransposeSinker final : public ExprMutator {
 protected:
  // `pre` is type-checked; every rewrite keeps its value's type, so `pre`'s argument types
  // are those of `post`'s arguments.
  Expr RewriteCall(const Call& pre, const Call& post) override {
    const OpDef* op = post->op();
    if (op == nullptr) return post;
    if (op->name == "transpose") return ComposeTransposes(post);
    if (op->name == "nn.squeeze_excitation") return ReadChannelsLast(post);
    const bool is_bias_add = op->name == "nn.bias_add";
    if (!is_bias_add && !CommutesWithTranspose(*op)) return post;
    const TensorTypeNode* result = AsTensorType(pre->checked_type());
    if (result == nullptr) return post;
    const size_t rank = result->shape.size();

    std::optional<std::vector<int64_t>> permutation;
    std::vector<Expr> args;
    for (size_t i = 0; i < post->args.size(); ++i) {
      const TensorTypeNode* arg_type = AsTensorType(pre->args[i]->checked_type());
      if (arg_type == nullptr) return post;
      const CallNode* transpose = AsCallOf(post->args[i], "transpose");
      const bool is_bias = is_bias_add && i == 1;
      if (transpose != nullptr && !is_bias && arg_type->shape.size() == rank) {
        const std::optional<std::vector<int64_t>> axes = PermutationOf(*transpose);
        if (!axes || (permutation && *permutation != *axes)) return post;
        permutation = axes;
        args.push_back(transpose->args[0]);
      } else if (is_bias || HoldsOneValue(pre->args[i]->checked_type())) {
        args.push_back(post->args[i]);
      } else {
        return post;
      }
    }
    if (!permutation || (is_bias_add && args[0] == post->args[0])) return post;

    Attrs attrs = post->attrs;
    if (is_bias_add) {
      int64_t axis = attrs.GetInt("axis");
      if (axis < 0) axis += static_cast<int64_t>(rank);
      attrs.Set("axis", (*permutation)[axis]);
    }
    return CallOp("transpose", {MakeCall(post->callee, std::move(args), std::move(attrs))},
                  Attrs{{"axes", *permutation}});
  }

 private:
  // nn.squeeze_excitation reading its data from a channels-last to plain transpose reads the
  // channels-last data itself (its `layout` attribute), and its result is transposed the same way.
  static Expr ReadChannelsLast(const Call& call) {
    const CallNode* transpose = AsCallOf(call->args[0], "transpose");
    if (transpose == nullptr || call->attrs.GetString("layout") != "NCHW") return call;
    const std::optional<std::vector<int64_t>> axes = PermutationOf(*transpose);
    if (!axes || *axes != kFromChannelsLastAxes) return call;
    std::vector<Expr> args = call->args;
    args[0] = transpose->args[0];
    Attrs attrs = call->attrs;
    attrs.Set("layout", std::string("NHWC"));
    return CallOp("transpose", {MakeCall(call->callee, std::move(args), std::move(attrs))},
                  Attrs{{"axes", kFromChannelsLastAxes}});
  }

  // transpose(transpose(x, inner), outer): output axis i is x's axis inner[outer[i]].
  static Expr ComposeTransposes(const Call& outer) {
    const CallNode* inner = AsCallOf(outer->args[0], "transpose");
    if (inner == nullptr) return outer;
    const std::optional<std::vector<int64_t>> inner_axes = PermutationOf(*inner);
    const std::optional<std::vector<int64_t>> outer_axes = PermutationOf(*outer);
    if (!inner_axes || !outer_axes || inner_axes->size() != outer_axes->size()) return outer;
    std::vector<int64_t> composed;
    for (int64_t axis : *outer_axes) composed.push_back((*inner_axes)[axis]);
    if (IsIdentity(composed)) return inner->args[0];
    return CallOp("transpose", {inner->args[0]}, Attrs{{"axes", composed}});
  }
};

}  // namespace

Function SinkTransposes(const Function& function) {
  const Expr body = TransposeSinker().Mutate(function->body);
  if (body == function->body) return function;
  const Function result = MakeFunction(function->params, body, function->attrs);
  InferType(result);
  return result;
}

}  // namespace collage
