#include "backend/onednn/op_families.h"

#include <map>

namespace collage::onednn {

std::optional<OpFamily> FamilyOf(const std::string& op) {
  static const std::map<std::string, OpFamily> families = {
      {"nn.conv2d", OpFamily::kConvolution},
      {"nn.conv2d_transpose", OpFamily::kConvolution},
      {"nn.dense", OpFamily::kMatmul},
      {"nn.matmul", OpFamily::kMatmul},
      {"nn.batch_matmul", OpFamily::kMatmul},
      {"nn.max_pool2d", OpFamily::kPooling},
      {"nn.avg_pool2d", OpFamily::kPooling},
      {"nn.global_max_pool2d", OpFamily::kPooling},
      {"nn.global_avg_pool2d", OpFamily::kPooling},
      {"nn.adaptive_avg_pool2d", OpFamily::kPooling},
      {"nn.relu", OpFamily::kEltwise},
      {"nn.leaky_relu", OpFamily::kEltwise},
      {"sigmoid", OpFamily::kEltwise},
      {"tanh", OpFamily::kEltwise},
      {"nn.gelu", OpFamily::kEltwise},
      {"clip", OpFamily::kEltwise},
      {"exp", OpFamily::kEltwise},
      {"log", OpFamily::kEltwise},
      {"sqrt", OpFamily::kEltwise},
      {"rsqrt", OpFamily::kEltwise},
      {"abs", OpFamily::kEltwise},
      {"negative", OpFamily::kEltwise},
      {"add", OpFamily::kBinary},
      {"subtract", OpFamily::kBinary},
      {"multiply", OpFamily::kBinary},
      {"divide", OpFamily::kBinary},
      {"maximum", OpFamily::kBinary},
      {"minimum", OpFamily::kBinary},
      {"nn.bias_add", OpFamily::kBinary},
      {"nn.softmax", OpFamily::kNormalization},
      {"nn.log_softmax", OpFamily::kNormalization},
      {"nn.layer_norm", OpFamily::kNormalization},
      {"nn.batch_norm", OpFamily::kNormalization},
      {"reshape", OpFamily::kReshape},
      {"flatten", OpFamily::kReshape},
      {"squeeze", OpFamily::kReshape},
      {"expand_dims", OpFamily::kReshape},
      {"copy", OpFamily::kReshape},
      {"nn.dropout", OpFamily::kReshape},
      {"transpose", OpFamily::kTranspose},
      {"concatenate", OpFamily::kConcat},
  };
  const auto found = families.find(op);
  if (found == families.end()) return std::nullopt;
  return found->second;
}

bool BinaryOperandsFit(const std::string& op, const Shape& lhs, const Shape& rhs, const Shape& result) {
  // An operand is not broadcast when, with leading 1s up to the result's rank, it is the result's shape.
  auto full = [&result](const Shape& operand) {
    if (operand.size() > result.size()) return false;
    Shape padded(result.size() - operand.size(), 1);
    padded.insert(padded.end(), operand.begin(), operand.end());
    return padded == result;
  };
  const bool commutative = op != "subtract" && op != "divide";
  if (full(lhs)) return true;
  return commutative && full(rhs);
}

}  // namespace collage::onednn
