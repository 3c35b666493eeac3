#include "backend/onednn/pattern_table.h"

#include "pattern/pattern_parser.h"

namespace collage::onednn {
namespace {

// Every label is a convolution or product with what its epilogue fuses (epilogue.h): a
// constant bias, then a residual add, then one activation. A pattern goes on over
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
)";

}  // namespace

std::vector<BackendPattern> PatternTable() {
  std::vector<BackendPattern> table;
  for (LabelledPattern& entry : ParsePatternTable(kPatternTable, "onednn/pattern_table.cc")) {
    table.push_back({std::move(entry.label), std::move(entry.pattern), {}});
  }
  return table;
}

}  // namespace collage::onednn
