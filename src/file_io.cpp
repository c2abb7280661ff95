// File helpers shared by mesh and stroke I/O: whole-file reads, atomic writes, extensions.
#include "file_io.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fstream>
#include <sstream>
#include <system_error>

#include <sculptflow/error.hpp>
#include "process_id.hpp"

namespace sculptflow::detail {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
    throw Error(path.string() + ": " + what);
}

std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

std::string readWholeFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        fail(path, std::filesystem::exists(path, ec) ? "not a regular file" : "file not found");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, "cannot open for reading");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) fail(path, "read error");
    return std::move(buffer).str();
}

// The temporary name is unique per process and call, so concurrent writers never share one.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
    static std::atomic<unsigned> counter{0};
    auto tmp = path;
    tmp += ".tmp-" + std::to_string(processId()) + "-" + std::to_string(counter++);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) fail(path, "cannot open temporary file " + tmp.string() + " for writing");
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            fail(path, "write failed (disk full?)");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        fail(path, "cannot replace file: " + ec.message());
    }
}

} // namespace sculptflow::detail
