#include "support/tensor_format.h"

namespace collage {

const std::vector<Layout>& AllLayouts() {
  static const std::vector<Layout> layouts = {Layout::kPlain, Layout::kChannelsLast, Layout::kChannelBlocked8,
                                              Layout::kChannelBlocked16};
  return layouts;
}

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kPlain:
      return "plain";
    case Layout::kChannelsLast:
      return "nhwc";
    case Layout::kChannelBlocked8:
      return "nchw8c";
    case Layout::kChannelBlocked16:
      return "nchw16c";
  }
  return "?";
}

std::optional<Layout> ParseLayout(std::string_view name) {
  for (Layout layout : AllLayouts()) {
    if (name == LayoutName(layout)) return layout;
  }
  return std::nullopt;
}

std::string LayoutNames() {
  std::string names;
  for (Layout layout : AllLayouts()) names += std::string(names.empty() ? "" : ", ") + LayoutName(layout);
  return names;
}

int64_t ChannelBlock(Layout layout) {
  switch (layout) {
    case Layout::kChannelBlocked8:
      return 8;
    case Layout::kChannelBlocked16:
      return 16;
    default:
      return 0;
  }
}

Shape PhysicalShape(const Shape& logical, Layout layout) {
  if (layout == Layout::kPlain || logical.size() != 4) return logical;
  if (const int64_t block = ChannelBlock(layout)) {
    return {logical[0], (logical[1] + block - 1) / block, logical[2], logical[3], block};
  }
  return {logical[0], logical[2], logical[3], logical[1]};
}

bool LayoutsShareBytes(const Shape& logical, Layout first, Layout second) {
  if (first == second || logical.size() != 4) return true;
  const int64_t channels = logical[1];
  const bool single_pixel = logical[2] * logical[3] == 1;
  const int64_t first_block = ChannelBlock(first);
  const int64_t second_block = ChannelBlock(second);
  if (first_block == 0 && second_block == 0) return channels == 1 || single_pixel;
  // A channel-blocked layout matches another only without padding: over a single pixel every
  // layout is [N, C]; with a single block it is channels-last.
  for (const int64_t block : {first_block, second_block}) {
    if (block != 0 && channels % block != 0) return false;
  }
  if (single_pixel) return true;
  const int64_t block = first_block != 0 ? first_block : second_block;
  const Layout other = first_block != 0 ? second : first;
  return other == Layout::kChannelsLast && channels == block;
}

std::string WithLayoutSuffix(const std::string& name, Layout layout, DType precision) {
  std::string suffix = layout == Layout::kPlain ? "" : std::string(LayoutName(layout));
  if (precision != DType::kF32) suffix += std::string(suffix.empty() ? "" : " ") + std::string(DTypeName(precision));
  return suffix.empty() ? name : name + " [" + suffix + "]";
}

std::string FormatName(const TensorFormat& format) {
  return std::string(LayoutName(format.layout)) + "/" + std::string(DTypeName(format.dtype));
}

}  // namespace collage
