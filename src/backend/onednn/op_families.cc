#include "backend/onednn/op_families.h"

#include <algorithm>
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
      {"nn.silu", OpFamily::kEltwise},
      {"nn.hard_swish", OpFamily::kEltwise},
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

Shape WithLeadingOnes(const Shape& shape, size_t rank) {
  Shape padded(rank - std::min(rank, shape.size()), 1);
  padded.insert(padded.end(), shape.begin(), shape.end());
  return padded;
}

bool BinaryOperandsFit(const std::string& op, const Shape& first, const Shape& second, const Shape& result) {
  const bool commutes = op == "add" || op == "multiply" || op == "maximum" || op == "minimum";
  return WithLeadingOnes(first, result.size()) == result || (commutes && WithLeadingOnes(second, result.size()) == result);
}

}  // namespace collage::onednn
