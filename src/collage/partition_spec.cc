#include "collage/partition_spec.h"

namespace collage {

SubGraphConfig DefaultSubGraphConfig() { return SubGraphConfig{.max_exits = 1, .allow_taps = false, .max_depth = 6}; }

PartitionSpec MakeOpPredicateSpec(const SupportDeclaration& declaration, const SubGraphConfig& config) {
  auto predicate = std::make_shared<OpPredicatePartitionRule>(declaration.backend + ".ops", declaration.supports_op);
  auto combine = std::make_shared<CombinePartitionRule>(
      declaration.backend + ".combine", predicate,
      std::vector<std::shared_ptr<const CombinerRule>>{std::make_shared<AllSimpleCombinerRule>()}, config);
  auto valid = std::make_shared<OnlyValidPartitionRule>(declaration.backend + ".valid", combine, config);
  auto primitive = std::make_shared<PrimitivePartitionRule>(declaration.backend, valid);
  return PartitionSpec{declaration.backend, declaration.backend, primitive};
}

PartitionSpec MakeCodeGeneratorSpec(const std::string& backend, const SubGraphConfig& config) {
  auto by_kind = std::make_shared<OpCallByKindPartitionRule>(backend + ".ops");
  auto combine = std::make_shared<CombinePartitionRule>(backend + ".combine", by_kind, DefaultCombinerRules(), config);
  auto valid = std::make_shared<OnlyValidPartitionRule>(backend + ".valid", combine, config);
  auto primitive = std::make_shared<PrimitivePartitionRule>(backend, valid);
  return PartitionSpec{backend, backend, primitive};
}

PartitionSpec MakeHostSpec() { return PartitionSpec{"host", "host", std::make_shared<HostPartitionRule>("host")}; }

}  // namespace collage
