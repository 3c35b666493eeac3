#include "testing/wrong_backends.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "backend/reference/reference_backend.h"
#include "ir/type.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "ir/op_registry.h"
#include "support/shape.h"

namespace collage::testing {
namespace {

const std::set<std::string>& BroadcastingBinaryOps() {
  static const std::set<std::string> ops = {"add",     "subtract", "multiply",   "divide",
                                            "power",   "maximum",  "minimum",    "nn.bias_add"};
  return ops;
}

const std::set<std::string>& WindowedOps() {
  static const std::set<std::string> ops = {"nn.conv2d", "nn.max_pool2d", "nn.avg_pool2d"};
  return ops;
}

// Replaces the broadcast operand of each broadcasting binary op (an operand with more than one
// element and a shape other than the result's) by its first element repeated to its shape.
class BreakBroadcasts final : public ExprMutator {
 public:
  int changed = 0;

 protected:
  Expr RewriteCall(const Call& pre, const Call& post) override {
    if (post->op() == nullptr || !BroadcastingBinaryOps().count(post->op()->name)) return post;
    const TensorTypeNode* result = AsTensorType(pre->checked_type());
    std::vector<Expr> args = post->args;
    bool broke = false;
    for (size_t i = 0; i < args.size(); ++i) {
      const TensorTypeNode* operand = AsTensorType(pre->args[i]->checked_type());
      if (result == nullptr || operand == nullptr || operand->shape == result->shape) continue;
      if (NumElements(operand->shape) <= 1) continue;
      const size_t rank = operand->shape.size();
      Expr first = CallOp("strided_slice", {args[i]},
                          {{"begin", std::vector<int64_t>(rank, 0)}, {"end", std::vector<int64_t>(rank, 1)}});
      args[i] = CallOp("broadcast_to", {first}, {{"shape", operand->shape}});
      broke = true;
    }
    if (!broke) return post;
    ++changed;
    return MakeCall(post->callee, args, post->attrs);
  }
};

// Moves one row of each window's padding from its bottom to its top (or back when the bottom
// has none): the output shape stays, every window reads one row off.
class ShiftWindows final : public ExprMutator {
 public:
  int changed = 0;

 protected:
  Expr RewriteCall(const Call& /*pre*/, const Call& post) override {
    if (post->op() == nullptr || !WindowedOps().count(post->op()->name) || !post->attrs.Has("padding")) return post;
    std::vector<int64_t> padding = post->attrs.GetInts("padding");
    if (padding.size() != 4) return post;
    if (padding[2] > 0) {
      ++padding[0];
      --padding[2];
    } else if (padding[0] > 0) {
      --padding[0];
      ++padding[2];
    } else {
      return post;
    }
    Attrs attrs = post->attrs;
    attrs.Set("padding", padding);
    ++changed;
    return MakeCall(post->callee, post->args, attrs);
  }
};

// The indices of the first two outputs (tuples flattened) of one dtype and shape; empty when
// there are none.
std::vector<size_t> SwappableOutputs(const Type& result) {
  std::vector<const TensorTypeNode*> outputs;
  std::vector<Type> pending = {result};
  while (!pending.empty()) {
    const Type type = pending.front();
    pending.erase(pending.begin());
    if (const TupleTypeNode* tuple = AsTupleType(type)) {
      pending.insert(pending.begin(), tuple->fields.begin(), tuple->fields.end());
    } else {
      outputs.push_back(AsTensorType(type));
    }
  }
  for (size_t first = 0; first < outputs.size(); ++first) {
    for (size_t second = first + 1; second < outputs.size(); ++second) {
      if (outputs[first] && outputs[second] && outputs[first]->dtype == outputs[second]->dtype &&
          outputs[first]->shape == outputs[second]->shape) {
        return {first, second};
      }
    }
  }
  return {};
}

class WrongExecutable final : public Executable {
 public:
  WrongExecutable(std::unique_ptr<Executable> reference, Mistake mistake, std::vector<size_t> swapped)
      : reference_(std::move(reference)), mistake_(mistake), swapped_(std::move(swapped)) {}

  void Run(std::span<const Tensor> inputs, std::span<Tensor> outputs) override {
    reference_->Run(inputs, outputs);
    if (mistake_ == Mistake::kSmallNumericError) {
      for (Tensor& output : outputs) {
        if (!IsFloatingPoint(output.dtype())) continue;
        for (int64_t i = 0; i < output.NumElements(); ++i) output.SetFromDouble(i, output.GetAsDouble(i) * 1.002);
      }
    }
    if (mistake_ == Mistake::kSwappedOutputs) {
      Tensor& first = outputs[swapped_[0]];
      Tensor& second = outputs[swapped_[1]];
      auto* first_bytes = static_cast<unsigned char*>(first.raw_data());
      std::swap_ranges(first_bytes, first_bytes + first.NumBytes(), static_cast<unsigned char*>(second.raw_data()));
    }
  }

 private:
  std::unique_ptr<Executable> reference_;
  Mistake mistake_;
  std::vector<size_t> swapped_;
};

}  // namespace

std::string WrongBackend::name() const {
  switch (mistake_) {
    case Mistake::kSmallNumericError:
      return "wrong-small-error";
    case Mistake::kWrongBroadcast:
      return "wrong-broadcast";
    case Mistake::kSwappedOutputs:
      return "wrong-swapped-outputs";
    case Mistake::kOffByOneWindow:
      return "wrong-window";
  }
  return "wrong";
}

SupportDeclaration WrongBackend::Support() const {
  SupportDeclaration declaration;
  declaration.backend = name();
  declaration.supports_op = [](const CallNode&) { return true; };
  return declaration;
}

std::unique_ptr<Executable> WrongBackend::Compile(const Function& function, const CompileOptions& options) const {
  Function wrong = function;
  std::vector<size_t> swapped;
  if (mistake_ == Mistake::kWrongBroadcast || mistake_ == Mistake::kOffByOneWindow) {
    int changed = 0;
    Expr rewritten;
    if (mistake_ == Mistake::kWrongBroadcast) {
      BreakBroadcasts mutator;
      rewritten = mutator.Mutate(function);
      changed = mutator.changed;
    } else {
      ShiftWindows mutator;
      rewritten = mutator.Mutate(function);
      changed = mutator.changed;
    }
    if (changed == 0) throw Error(name() + ": the function has nothing to get wrong");
    wrong = std::static_pointer_cast<const FunctionNode>(rewritten);
    InferType(wrong);
  }
  if (mistake_ == Mistake::kSwappedOutputs) {
    swapped = SwappableOutputs(function->body->checked_type());
    if (swapped.empty()) throw Error(name() + ": the function has no two outputs of one type");
  }
  return std::make_unique<WrongExecutable>(ReferenceBackend().Compile(wrong, options), mistake_, swapped);
}

const std::vector<Mistake>& AllMistakes() {
  static const std::vector<Mistake> mistakes = {Mistake::kSmallNumericError, Mistake::kWrongBroadcast,
                                                Mistake::kSwappedOutputs, Mistake::kOffByOneWindow};
  return mistakes;
}

void RegisterWrongBackends(BackendRegistry& registry) {
  for (Mistake mistake : AllMistakes()) registry.Register(std::make_shared<WrongBackend>(mistake));
}

}  // namespace collage::testing
