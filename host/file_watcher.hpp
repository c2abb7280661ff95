// Tells whether any of a set of files changed: the platform's change
// notifications where it has them (directory_events.hpp), mtime polling elsewhere.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "directory_events.hpp"

namespace sculptflow {

class FileWatcher {
public:
    // Watches the directories holding `files` (editors often save by renaming a
    // new file over the old one, which a watch on the file itself would miss).
    // useNotifications false: polling only.
    explicit FileWatcher(bool useNotifications = true);

    void watch(const std::vector<std::filesystem::path>& files);
    // True when a watched file was written, replaced or removed since the last call.
    // Never blocks.
    bool changed();
    // Whether the platform's notifications are in use (inotify on Linux).
    bool usesNotifications() const { return events_ != nullptr; }

private:
    bool pollTimes();

    std::unique_ptr<DirectoryEvents> events_;
    std::map<std::filesystem::path, std::filesystem::file_time_type> times_;
};

} // namespace sculptflow
