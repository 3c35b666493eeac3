// The text format parser (docs/TEXT_FORMAT.md). Errors are ParseErrors or TypeErrors whose
// message starts with "<file>:<line>:<column>: ".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace collage {

// Parses and type-checks a module. `file_name` is used in error messages only. `meta_table`
// supplies the data of `constant(meta[K], Type)` references (see PrintOptions::meta_table);
// a reference beyond it is a ParseError.
Module ParseModule(std::string_view text, const std::string& file_name = "",
                   const std::vector<Tensor>& meta_table = {});
// Reads the file and parses it; an unreadable file is an Error naming it.
Module ParseModuleFile(const std::string& path);

}  // namespace collage
