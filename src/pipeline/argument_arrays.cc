#include "pipeline/argument_arrays.h"

#include <map>

#include "ir/type.h"
#include "support/error.h"

namespace collage {
namespace {

std::string DescribeArray(const Tensor& tensor) { return TypeToString(TensorType(tensor.dtype(), tensor.shape())); }

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined.empty() ? "none" : joined;
}

}  // namespace

std::vector<Value> ArgumentsFromArrays(const Function& function, const NamedTensors& arrays, const std::string& file) {
  std::map<std::string, const Tensor*> by_name;
  std::vector<std::string> array_names;
  for (const auto& [name, tensor] : arrays) {
    by_name[name] = &tensor;
    array_names.push_back(name);
  }
  std::vector<std::string> parameter_names;
  for (const Var& parameter : function->params) parameter_names.push_back(parameter->name_hint);

  std::vector<Value> arguments;
  std::map<std::string, bool> used;
  for (const Var& parameter : function->params) {
    const std::string& name = parameter->name_hint;
    const std::string expected = TypeToString(parameter->type_annotation);
    if (used.count(name) > 0) throw Error(file + ": @main has two parameters named '" + name + "'");
    used[name] = true;
    const TensorTypeNode* type = AsTensorType(parameter->type_annotation);
    if (type == nullptr) {
      throw Error(file + ": parameter '" + name + "' has type " + expected + ", which an .npz array cannot provide");
    }
    auto found = by_name.find(name);
    if (found == by_name.end()) {
      throw Error(file + ": no array for parameter '" + name + "' (expected " + expected +
                  "); the file has: " + JoinNames(array_names));
    }
    const Tensor& tensor = *found->second;
    if (tensor.dtype() != type->dtype || tensor.shape() != type->shape) {
      throw Error(file + ": array '" + name + "' is " + DescribeArray(tensor) + " but parameter '" + name +
                  "' expects " + expected);
    }
    arguments.emplace_back(tensor);
  }
  for (const std::string& name : array_names) {
    if (used.count(name) == 0) {
      throw Error(file + ": array '" + name +
                  "' matches no parameter of @main (parameters: " + JoinNames(parameter_names) + ")");
    }
  }
  return arguments;
}

}  // namespace collage
