// The runtime headers of runtime/ (file name and text), embedded into the library at build
// time (backend.cmake) so generated code compiles without the source tree.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace collage::native {

const std::vector<std::pair<std::string, std::string>>& RuntimeHeaders();

}  // namespace collage::native
