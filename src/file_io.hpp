// Whole-file reading and atomic writing, shared by mesh and stroke I/O.
// Internal to the library (namespace sculptflow::detail): not public API.
#pragma once

#include <filesystem>
#include <string>

namespace sculptflow::detail {

// Throws sculptflow::Error with the message "<path>: <what>".
[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what);

// The path's extension ("" if none), lower-cased: ".obj" for "Mesh.OBJ".
std::string lowerExtension(const std::filesystem::path& path);

// The file's bytes; throws sculptflow::Error when it is missing, not a regular file,
// or cannot be read.
std::string readWholeFile(const std::filesystem::path& path);

// Writes `bytes` to a temporary file next to `path` and renames it over `path`, so that a
// failed write leaves any previous file untouched and never a partial one.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

} // namespace sculptflow::detail
