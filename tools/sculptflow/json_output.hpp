// Writing a command's JSON report.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace sculptflow::cli {

// Writes `json` (indented, with a final newline) to a temporary file next to
// `path` and renames it over `path`: a failed write leaves any previous file as
// it was. Throws sculptflow::Error naming the path.
void writeJsonFile(const nlohmann::json& json, const std::string& path);

} // namespace sculptflow::cli
