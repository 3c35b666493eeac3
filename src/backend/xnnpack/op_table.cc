#include "backend/xnnpack/op_table.h"

#include <map>

namespace collage::xnnpack {
namespace {

const std::map<std::string, OpEntry>& Table() {
  static const std::map<std::string, OpEntry> table = {
      {"nn.conv2d", {Conv2DRule, DefineConv2D}},
      {"nn.conv2d_transpose", {Conv2DTransposeRule, DefineConv2DTranspose}},
      {"nn.dense", {DenseRule, DefineDense}},
      {"nn.max_pool2d", {WindowPoolRule, DefineMaxPool2D}},
      {"nn.avg_pool2d", {WindowPoolRule, DefineAvgPool2D}},
      {"nn.global_avg_pool2d", {GlobalPoolRule, DefineGlobalAvgPool2D}},
      {"nn.global_max_pool2d", {GlobalPoolRule, DefineGlobalMaxPool2D}},
      {"nn.adaptive_avg_pool2d", {AdaptiveAvgPoolRule, DefineAdaptiveAvgPool2D}},
      {"add", {BinaryRule, DefineBinary}},
      {"subtract", {BinaryRule, DefineBinary}},
      {"multiply", {BinaryRule, DefineBinary}},
      {"divide", {BinaryRule, DefineBinary}},
      {"maximum", {BinaryRule, DefineBinary}},
      {"minimum", {BinaryRule, DefineBinary}},
      {"nn.bias_add", {BiasAddRule, DefineBiasAdd}},
      {"nn.relu", {UnaryRule, DefineUnary}},
      {"clip", {UnaryRule, DefineUnary}},
      {"nn.leaky_relu", {UnaryRule, DefineUnary}},
      {"sigmoid", {UnaryRule, DefineUnary}},
      {"abs", {UnaryRule, DefineUnary}},
      {"negative", {UnaryRule, DefineUnary}},
      {"floor", {UnaryRule, DefineUnary}},
      {"ceil", {UnaryRule, DefineUnary}},
      {"round", {UnaryRule, DefineUnary}},
      {"sqrt", {UnaryRule, DefineUnary}},
      {"nn.softmax", {SoftmaxRule, DefineSoftmax}},
      {"nn.pad", {PadRule, DefinePad}},
      {"reshape", {ReshapeRule, DefineReshape}},
      {"flatten", {ReshapeRule, DefineReshape}},
      {"squeeze", {ReshapeRule, DefineReshape}},
      {"expand_dims", {ReshapeRule, DefineReshape}},
  };
  return table;
}

}  // namespace

const OpEntry* FindOp(const std::string& op_name) {
  const auto it = Table().find(op_name);
  return it == Table().end() ? nullptr : &it->second;
}

std::vector<std::string> MappedOpNames() {
  std::vector<std::string> names;
  for (const auto& [name, entry] : Table()) names.push_back(name);
  return names;
}

}  // namespace collage::xnnpack
