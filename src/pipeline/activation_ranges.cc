#include "pipeline/activation_ranges.h"

#include "backend/precision.h"
#include "interpreter/calibration.h"
#include "ir/type_inference.h"
#include "ir/visitor.h"
#include "support/error.h"

namespace collage {
namespace {

class RangeAttacher : public ExprMutator {
 public:
  explicit RangeAttacher(const RangesByNode& ranges) : ranges_(ranges) {}

 protected:
  Expr RewriteCall(const Call& pre, const Call& post) override {
    const auto* callee = As<FunctionNode>(post->callee);
    if (callee == nullptr || !callee->attrs.Has(attr::kPrimitive) || PrecisionOf(callee->attrs) == DType::kF32) {
      return post;
    }
    std::vector<ActivationRange> parameter_ranges;
    for (size_t i = 0; i < pre->args.size(); ++i) {
      const auto found = ranges_.find(pre->args[i].get());
      if (found == ranges_.end()) {
        const std::string symbol =
            callee->attrs.Has(attr::kGlobalSymbol) ? callee->attrs.GetString(attr::kGlobalSymbol) : "a partition";
        throw Error(symbol + ": argument " + std::to_string(i) + " of a " +
                    std::string(DTypeName(PrecisionOf(callee->attrs))) + " partition has no f32 calibration range");
      }
      parameter_ranges.push_back(found->second);
    }
    const Function ranged = WithPrecision(Downcast<FunctionNode>(post->callee), PrecisionOf(callee->attrs), parameter_ranges);
    return MakeCall(ranged, post->args, post->attrs);
  }

 private:
  const RangesByNode& ranges_;
};

}  // namespace

Function AttachActivationRanges(const Function& function, const std::vector<std::vector<Value>>& calibration_inputs,
                                double percentile) {
  const RangesByNode ranges = CalibrateRanges(function, calibration_inputs, percentile);
  RangeAttacher attacher(ranges);
  const Function attached = MakeFunction(function->params, attacher.Mutate(function->body), function->attrs);
  InferType(attached);
  return attached;
}

}  // namespace collage
