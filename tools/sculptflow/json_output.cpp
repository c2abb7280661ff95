// Writing a command's JSON report, atomically.
#include "json_output.hpp"

#include "src/file_io.hpp"

namespace sculptflow::cli {

void writeJsonFile(const nlohmann::json& json, const std::string& path) {
    detail::writeFileAtomically(path, json.dump(2) + '\n');
}

} // namespace sculptflow::cli
