#include "support/partition_layouts.h"

namespace collage {

std::string PartitionLayoutsName(const PartitionLayouts& layouts) {
  if (layouts.IsUniform()) return LayoutName(layouts.parameters);
  return std::string(LayoutName(layouts.parameters)) + ">" + LayoutName(layouts.results);
}

std::optional<PartitionLayouts> ParsePartitionLayouts(const std::string& name) {
  const size_t separator = name.find('>');
  if (separator == std::string::npos) {
    const std::optional<Layout> layout = ParseLayout(name);
    if (!layout) return std::nullopt;
    return PartitionLayouts::Uniform(*layout);
  }
  const std::optional<Layout> parameters = ParseLayout(name.substr(0, separator));
  const std::optional<Layout> results = ParseLayout(name.substr(separator + 1));
  if (!parameters || !results) return std::nullopt;
  return PartitionLayouts{*parameters, *results};
}

std::string WithLayoutsSuffix(const std::string& name, const PartitionLayouts& layouts, DType precision) {
  std::string suffix = layouts.IsPlain() ? "" : PartitionLayoutsName(layouts);
  if (precision != DType::kF32) suffix += (suffix.empty() ? "" : " ") + std::string(DTypeName(precision));
  return suffix.empty() ? name : name + " [" + suffix + "]";
}

}  // namespace collage
