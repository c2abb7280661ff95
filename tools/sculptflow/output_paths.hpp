// Output paths checked before the work: a typo in --out must not cost a whole solve.
#pragma once

#include <string>

namespace sculptflow::cli {

// Throws sculptflow::Error naming `option` and `path` when the file could not be
// written: its folder is missing, not a folder or not writable, or the path is a
// folder itself. An empty path (no output asked for) passes. Writes nothing.
void checkOutputPath(const std::string& option, const std::string& path);

} // namespace sculptflow::cli
