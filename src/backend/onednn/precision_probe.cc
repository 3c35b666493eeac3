#include "backend/onednn/implementation.h"
#include "backend/onednn/kernel_probe.h"

namespace collage::onednn {

bool ReducedPrecisionIsOptimized(dnnl::memory::data_type type, const dnnl::engine& engine) {
  using dnnl::memory;
  const memory::data_type source = type == memory::data_type::s8 ? memory::data_type::u8 : type;
  const auto any = memory::format_tag::any;
  const auto f32 = memory::data_type::f32;
  try {
    const dnnl::convolution_forward::desc convolution(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, memory::desc({1, 32, 14, 14}, source, any),
        memory::desc({32, 32, 3, 3}, type, any), memory::desc({1, 32, 14, 14}, f32, any), {1, 1}, {1, 1}, {1, 1});
    const dnnl::convolution_forward::primitive_desc convolution_primitive(convolution, engine);
    const dnnl::matmul::desc product(memory::desc({64, 256}, source, memory::format_tag::ab),
                                     memory::desc({256, 256}, type, any), memory::desc({64, 256}, f32, memory::format_tag::ab));
    const dnnl::matmul::primitive_desc product_primitive(product, engine);
    return !IsReference(convolution_primitive) && !IsReference(product_primitive);
  } catch (const dnnl::error&) {
    return false;
  }
}

}  // namespace collage::onednn
