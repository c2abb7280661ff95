// Output paths checked before the work.
#include "output_paths.hpp"

#include <filesystem>
#include <system_error>

#include <sculptflow/error.hpp>
#include "host_system.hpp"

namespace sculptflow::cli {

void checkOutputPath(const std::string& option, const std::string& path) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    const fs::path file(path);
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    std::error_code ec;
    const std::string where = option + " " + path + ": ";
    if (fs::is_directory(file, ec)) throw Error(where + "is a folder; give a file name");
    if (!fs::exists(folder, ec)) throw Error(where + "the folder " + folder.string() + " does not exist");
    if (!fs::is_directory(folder, ec)) throw Error(where + folder.string() + " is not a folder");
    if (!isWritableFolder(folder)) throw Error(where + "the folder " + folder.string() + " is not writable");
}

void checkOutputFolder(const std::string& option, const std::string& path) {
    if (path.empty()) return;
    namespace fs = std::filesystem;
    const std::string where = option + " " + path + ": ";
    // The folder itself, or the nearest parent that exists: that is where files or folders get created.
    fs::path existing = fs::absolute(fs::path(path)).lexically_normal();
    std::error_code ec;
    while (!fs::exists(existing, ec) && existing.has_parent_path() && existing != existing.parent_path())
        existing = existing.parent_path();
    if (!fs::is_directory(existing, ec)) throw Error(where + existing.string() + " is not a folder");
    if (!isWritableFolder(existing)) throw Error(where + "the folder " + existing.string() + " is not writable");
}

} // namespace sculptflow::cli
