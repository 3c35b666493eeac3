// The ops the xnnpack backend maps, each with its support rule and its node definer. Each op
// family's file (convolution_nodes.cc, pooling_nodes.cc, elementwise_nodes.cc,
// shape_nodes.cc) provides both, so what is declared supported and what is built stay together.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/op_registry.h"

namespace collage::xnnpack {

class SubgraphBuilder;

// Why XNNPACK cannot run this type-checked call, or "" when it can. Called only after the
// common checks (f32, ranks, not all-constant) of support_rules.h passed.
using SupportRule = std::string (*)(const CallNode& call);
// Adds the XNNPACK node(s) computing `call`; the result is builder.DefineResult(call).
using NodeDefiner = void (*)(SubgraphBuilder& builder, const CallNode& call);

struct OpEntry {
  SupportRule rule;
  NodeDefiner define;
};

// Null when the op is not mapped.
const OpEntry* FindOp(const std::string& op_name);
std::vector<std::string> MappedOpNames();

// The family files' entries.
std::string Conv2DRule(const CallNode& call);
void DefineConv2D(SubgraphBuilder& builder, const CallNode& call);
std::string Conv2DTransposeRule(const CallNode& call);
void DefineConv2DTranspose(SubgraphBuilder& builder, const CallNode& call);
std::string DenseRule(const CallNode& call);
void DefineDense(SubgraphBuilder& builder, const CallNode& call);

std::string WindowPoolRule(const CallNode& call);
void DefineMaxPool2D(SubgraphBuilder& builder, const CallNode& call);
void DefineAvgPool2D(SubgraphBuilder& builder, const CallNode& call);
std::string GlobalPoolRule(const CallNode& call);
void DefineGlobalAvgPool2D(SubgraphBuilder& builder, const CallNode& call);
void DefineGlobalMaxPool2D(SubgraphBuilder& builder, const CallNode& call);
std::string AdaptiveAvgPoolRule(const CallNode& call);
void DefineAdaptiveAvgPool2D(SubgraphBuilder& builder, const CallNode& call);

std::string BinaryRule(const CallNode& call);
void DefineBinary(SubgraphBuilder& builder, const CallNode& call);
std::string BiasAddRule(const CallNode& call);
void DefineBiasAdd(SubgraphBuilder& builder, const CallNode& call);
std::string UnaryRule(const CallNode& call);
void DefineUnary(SubgraphBuilder& builder, const CallNode& call);

std::string SoftmaxRule(const CallNode& call);
void DefineSoftmax(SubgraphBuilder& builder, const CallNode& call);
std::string PadRule(const CallNode& call);
void DefinePad(SubgraphBuilder& builder, const CallNode& call);
std::string ReshapeRule(const CallNode& call);
void DefineReshape(SubgraphBuilder& builder, const CallNode& call);

}  // namespace collage::xnnpack
