// A per-user private folder for caches whose contents are executed or trusted (compiled
// kernels loaded with dlopen, measured costs), for when the user has no home folder: a
// shared fixed path such as /tmp/collage-cache could be created and filled by another user
// first. The folder is created with mode 0700 and used only when it is a real folder (not a
// symbolic link) owned by the effective user with no permission for group or others.
#pragma once

#include <string>

namespace collage {

// Creates `path` (mode 0700) when it is missing; its parent must exist. Throws Error naming
// the path when it cannot be created or is not private (another owner, a symbolic link, not a
// folder, or group/other permission bits set).
void EnsurePrivateDirectory(const std::string& path);

// "$TMPDIR/collage-cache-<uid>" ($TMPDIR when absolute, else /tmp), made sure private by
// EnsurePrivateDirectory.
std::string PrivateTemporaryCacheDirectory();

}  // namespace collage
