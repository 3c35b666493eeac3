#include "support/tensor_format.h"

namespace collage {

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kPlain:
      return "plain";
    case Layout::kChannelsLast:
      return "nhwc";
  }
  return "?";
}

std::optional<Layout> ParseLayout(std::string_view name) {
  for (Layout layout : {Layout::kPlain, Layout::kChannelsLast}) {
    if (name == LayoutName(layout)) return layout;
  }
  return std::nullopt;
}

Shape PhysicalShape(const Shape& logical, Layout layout) {
  if (layout == Layout::kPlain || logical.size() != 4) return logical;
  return {logical[0], logical[2], logical[3], logical[1]};
}

Shape LogicalShape(const Shape& physical, Layout layout) {
  if (layout == Layout::kPlain || physical.size() != 4) return physical;
  return {physical[0], physical[3], physical[1], physical[2]};
}

bool LayoutsShareBytes(const Shape& logical, Layout first, Layout second) {
  if (first == second || logical.size() != 4) return true;
  return logical[1] == 1 || logical[2] * logical[3] == 1;
}

std::string FormatName(const TensorFormat& format) {
  return std::string(LayoutName(format.layout)) + "/" + std::string(DTypeName(format.dtype));
}

}  // namespace collage
