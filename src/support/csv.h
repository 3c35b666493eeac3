// Writing CSV (RFC 4180): fields are quoted only when they must be, numbers are written so
// that they read back to the same double.
#pragma once

#include <string>
#include <string_view>

namespace collage {

// `text` as one CSV field: in double quotes (inner quotes doubled) when it holds a comma, a
// quote or a line break, else as it is.
std::string CsvField(std::string_view text);
// The shortest decimal text that reads back to exactly `value`.
std::string CsvNumber(double value);

}  // namespace collage
