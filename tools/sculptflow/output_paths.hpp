// Output paths checked before the work: a typo in --out must not cost a whole solve.
#pragma once

#include <string>

namespace sculptflow::cli {

// Throws sculptflow::Error naming `option` and `path` when the file could not be
// written: its folder is missing, not a folder or not writable, or the path is a
// folder itself. An empty path (no output asked for) passes. Writes nothing.
void checkOutputPath(const std::string& option, const std::string& path);

// The same for a folder the command creates when it is missing (sweep --failures,
// shaders export): it must be a writable folder, or its nearest existing parent
// must be one. An empty path passes. Creates nothing.
void checkOutputFolder(const std::string& option, const std::string& path);

} // namespace sculptflow::cli
