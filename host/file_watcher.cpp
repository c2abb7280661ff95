// Change detection: the platform's notifications say when to look, and the
// files' modification times say whether a watched file really changed.
#include "file_watcher.hpp"

#include <set>
#include <system_error>

namespace sculptflow {
namespace {

std::filesystem::file_time_type timeOf(const std::filesystem::path& file) {
    std::error_code ec;
    auto time = std::filesystem::last_write_time(file, ec);
    return ec ? std::filesystem::file_time_type::min() : time;
}

} // namespace

FileWatcher::FileWatcher(bool useNotifications) {
    if (useNotifications) events_ = DirectoryEvents::open();
}

void FileWatcher::watch(const std::vector<std::filesystem::path>& files) {
    times_.clear();
    for (const std::filesystem::path& f : files) times_[f] = timeOf(f);
    if (!events_) return;
    std::set<std::filesystem::path> directories;
    for (const std::filesystem::path& f : files) directories.insert(f.parent_path().empty() ? "." : f.parent_path());
    events_->watch(directories);
}

bool FileWatcher::changed() {
    // Drain the queue; any event in a watched directory means "look again".
    if (events_) return events_->drain() && pollTimes();
    return pollTimes();
}

// Compares modification times, so that unrelated files in a watched directory
// (an editor's swap file) cause no rebuild.
bool FileWatcher::pollTimes() {
    bool any = false;
    for (auto& [file, time] : times_) {
        auto now = timeOf(file);
        if (now != time) {
            time = now;
            any = true;
        }
    }
    return any;
}

} // namespace sculptflow
