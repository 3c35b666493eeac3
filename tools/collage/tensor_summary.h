// A one-line summary of a tensor's values for the CLI: "min=-1 max=2.5 mean=0.75", plus
// the count of NaNs and infinities when there are any.
#pragma once

#include <string>

#include "collage/tensor.h"

namespace collage::cli {

std::string SummarizeTensor(const api::Tensor& tensor);

}  // namespace collage::cli
