// inotify-backed change detection with an mtime fallback.
#include "file_watcher.hpp"

#include <set>
#include <system_error>

#ifdef __linux__
#include <sys/inotify.h>
#include <unistd.h>
#endif

namespace sculptflow {
namespace {

std::filesystem::file_time_type timeOf(const std::filesystem::path& file) {
    std::error_code ec;
    auto time = std::filesystem::last_write_time(file, ec);
    return ec ? std::filesystem::file_time_type::min() : time;
}

} // namespace

FileWatcher::FileWatcher(bool useInotify) {
#ifdef __linux__
    if (useInotify) inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    (void)useInotify;
#endif
}

FileWatcher::~FileWatcher() {
#ifdef __linux__
    if (inotify_ >= 0) close(inotify_); // removes every watch
#endif
}

void FileWatcher::watch(const std::vector<std::filesystem::path>& files) {
    times_.clear();
    for (const std::filesystem::path& f : files) times_[f] = timeOf(f);
#ifdef __linux__
    if (inotify_ < 0) return;
    for (int w : watches_) inotify_rm_watch(inotify_, w);
    watches_.clear();
    std::set<std::filesystem::path> directories;
    for (const std::filesystem::path& f : files) directories.insert(f.parent_path().empty() ? "." : f.parent_path());
    for (const std::filesystem::path& dir : directories) {
        int w = inotify_add_watch(inotify_, dir.c_str(),
                                  IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY);
        if (w >= 0) watches_.push_back(w);
    }
#endif
}

bool FileWatcher::changed() {
#ifdef __linux__
    if (inotify_ >= 0) {
        // Drain the queue; any event in a watched directory means "look again".
        alignas(inotify_event) char buffer[4096];
        bool any = false;
        while (read(inotify_, buffer, sizeof(buffer)) > 0) any = true;
        return any && pollTimes();
    }
#endif
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
