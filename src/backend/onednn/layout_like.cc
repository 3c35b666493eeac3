#include "backend/onednn/layout_like.h"

#include <vector>

namespace collage::onednn {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

std::vector<tag> TagsOfRank(size_t rank) {
  switch (rank) {
    case 1:
      return {tag::a};
    case 2:
      return {tag::ab, tag::ba};
    case 3:
      return {tag::abc, tag::acb, tag::aBc4b, tag::aBc8b, tag::aBc16b};
    case 4:
      return {tag::abcd, tag::acdb, tag::aBcd4b, tag::aBcd8b, tag::aBcd16b};
    case 5:
      return {tag::abcde, tag::acdeb, tag::aBcde4b, tag::aBcde8b, tag::aBcde16b};
    default:
      return {};
  }
}

}  // namespace

std::optional<memory::desc> LayoutLike(const memory::desc& like, const memory::dims& dims) {
  const memory::dims like_dims = like.dims();
  if (like_dims.size() != dims.size()) return std::nullopt;
  for (const tag candidate : TagsOfRank(dims.size())) {
    if (memory::desc(like_dims, like.data_type(), candidate) == like) return memory::desc(dims, like.data_type(), candidate);
  }
  return std::nullopt;
}

dnnl::memory::format_tag JitChannelBlockTag() {
  const auto avx512_core = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
  const bool avx512 = (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & avx512_core) == avx512_core;
  return avx512 ? dnnl::memory::format_tag::aBcd16b : dnnl::memory::format_tag::aBcd8b;
}

}  // namespace collage::onednn
