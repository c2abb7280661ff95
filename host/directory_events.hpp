// The platform's change notifications for a set of directories, never blocking:
// inotify on Linux and Android, FindFirstChangeNotification on Windows, none
// elsewhere (FileWatcher then polls modification times).
#pragma once

#include <filesystem>
#include <memory>
#include <set>

namespace sculptflow {

class DirectoryEvents {
public:
    // Null where the platform has no notifications or they cannot start.
    static std::unique_ptr<DirectoryEvents> open();
    virtual ~DirectoryEvents() = default;

    // Replaces the watched directories.
    virtual void watch(const std::set<std::filesystem::path>& directories) = 0;
    // True when anything in a watched directory changed since the last call.
    virtual bool drain() = 0;
};

} // namespace sculptflow
