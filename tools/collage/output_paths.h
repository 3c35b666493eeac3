// Refusing output paths that would overwrite a file the command reads: `partition M -o M`,
// `db export -o DB --db DB`, `run --inputs F --outputs F`. Paths are compared by what they
// name, not by spelling: two existing paths are the same file when they have the same device
// and inode (symbolic and hard links included); a path that does not exist yet is compared by
// its canonical form (symbolic links in its existing folders resolved, "." and ".." removed).
#pragma once

#include <string>
#include <vector>

namespace collage::cli {

// A file a command reads or writes, with the option or argument that named it.
struct NamedPath {
  std::string role;  // "MODEL", "--inputs", "--db", ...
  std::string path;
};

// True when `a` and `b` name the same file (see above).
bool SameFile(const std::string& a, const std::string& b);

// Throws Error "OPTION 'PATH' is the same file as ROLE 'PATH': refusing to overwrite it"
// when an output names one of the inputs or another output. Empty paths are skipped.
void RefuseOutputsOverInputs(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs);

}  // namespace collage::cli
