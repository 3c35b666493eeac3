#include "backend/onednn/pattern_table.h"

#include "pass/fused_forms/decomposed_forms.h"
#include "pattern/pattern_parser.h"
#include "pattern/tied_bindings.h"

namespace collage::onednn {
namespace {

// Every label is a convolution or product with what its epilogue fuses (epilogue.h): a
// constant bias, then a residual add, then one activation; SiLU is x * sigmoid(x) of the
// convolution or product (its two uses tied), which Compile fuses into the swish post-op. A pattern goes on over
// several lines inside brackets. Shapes and attributes are checked
// when compiling.
constexpr const char* kPatternTable = R"(
# convolutions
$conv := nn.conv2d(*, *)
$conv_bias := nn.bias_add($conv, const) | add($conv, const)
$conv_any := $conv_bias | $conv
$conv_add := add($conv_any, *) | add(*, $conv_any)
onednn.conv2d_bias := $conv_bias
onednn.conv2d_add := $conv_add
onednn.conv2d_act := (nn.relu($conv_any) | nn.leaky_relu($conv_any) | sigmoid($conv_any) | tanh($conv_any) |
                     nn.gelu($conv_any) | clip($conv_any))
onednn.conv2d_add_act := (nn.relu($conv_add) | nn.leaky_relu($conv_add) | sigmoid($conv_add) | tanh($conv_add) |
                         nn.gelu($conv_add) | clip($conv_add))

# matrix products
$product := nn.dense(*, *) | nn.matmul(*, *) | nn.batch_matmul(*, *)
$product_bias := nn.bias_add($product, const) | add($product, const)
$product_any := $product_bias | $product
onednn.product_bias := $product_bias
onednn.product_act := (nn.relu($product_any) | nn.leaky_relu($product_any) | sigmoid($product_any) |
                      tanh($product_any) | nn.gelu($product_any) | clip($product_any))
onednn.conv2d_silu := multiply($conv_any, sigmoid($conv_any)) | multiply(sigmoid($conv_any), $conv_any)
onednn.product_silu := multiply($product_any, sigmoid($product_any)) | multiply(sigmoid($product_any), $product_any)
)";

}  // namespace

const std::vector<std::string>& FusedForms() {
  static const std::vector<std::string> forms = {"layer_norm", "gelu_erf", "gelu_tanh", "silu", "hard_swish"};
  return forms;
}

std::vector<BackendPattern> PatternTable() {
  PatternDefinitions definitions = ParsePatternDefinitions(kPatternTable, "onednn/pattern_table.cc");
  const MatchPredicate conv_tied = BindsOneExpressionEach({definitions.sub_patterns.at("conv_any")});
  const MatchPredicate product_tied = BindsOneExpressionEach({definitions.sub_patterns.at("product_any")});
  std::vector<BackendPattern> table;
  for (LabelledPattern& entry : definitions.entries) {
    MatchPredicate predicate;
    if (entry.label == "onednn.conv2d_silu") predicate = conv_tied;
    if (entry.label == "onednn.product_silu") predicate = product_tied;
    table.push_back({std::move(entry.label), std::move(entry.pattern), std::move(predicate)});
  }
  for (const std::string& name : FusedForms()) {
    const DecomposedForm& form = DecomposedFormNamed(name);
    table.push_back({"onednn." + form.name, form.pattern, form.accepts});
  }
  return table;
}

}  // namespace collage::onednn
