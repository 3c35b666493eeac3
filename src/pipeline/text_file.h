// Whole-file text reading and writing for the CLI, with errors naming the file.
#pragma once

#include <string>

namespace collage {

// Throws Error "cannot create 'PATH': <reason>" or "cannot write 'PATH'".
void WriteTextFile(const std::string& path, const std::string& text);
// Throws Error "cannot read 'PATH': <reason>".
std::string ReadTextFile(const std::string& path);

}  // namespace collage
