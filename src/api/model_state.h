// What a public Model holds: the module as loaded and the name it was loaded under.
#pragma once

#include <string>
#include <vector>

#include "collage/model.h"
#include "ir/module.h"

namespace collage::api {

struct Model::State {
  std::string name;
  Module module;  // type-checked, before the standard passes
  std::vector<std::string> bound_inputs;
  std::vector<std::string> output_names;  // ONNX only
};

}  // namespace collage::api
