// Tells whether any of a set of files changed: inotify on Linux, mtime polling elsewhere.
#pragma once

#include <filesystem>
#include <map>
#include <vector>

namespace sculptflow {

class FileWatcher {
public:
    // Watches the directories holding `files` (editors often save by renaming a
    // new file over the old one, which a watch on the file itself would miss).
    explicit FileWatcher(bool useInotify = true);
    ~FileWatcher();
    FileWatcher(const FileWatcher&) = delete;
    FileWatcher& operator=(const FileWatcher&) = delete;

    void watch(const std::vector<std::filesystem::path>& files);
    // True when a watched file was written, replaced or removed since the last call.
    // Never blocks.
    bool changed();
    bool usesInotify() const { return inotify_ >= 0; }

private:
    bool pollTimes();

    int inotify_ = -1;
    std::vector<int> watches_;
    std::map<std::filesystem::path, std::filesystem::file_time_type> times_;
};

} // namespace sculptflow
