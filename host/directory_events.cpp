// DirectoryEvents per platform; each keeps to the two calls of its interface.
#include "directory_events.hpp"

#include <vector>

#if defined(__linux__)
#include <sys/inotify.h>
#include <unistd.h>
#elif defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#endif

namespace sculptflow {
namespace {

#if defined(__linux__)

class InotifyEvents final : public DirectoryEvents {
public:
    explicit InotifyEvents(int fd) : fd_(fd) {}
    ~InotifyEvents() override { close(fd_); } // removes every watch

    void watch(const std::set<std::filesystem::path>& directories) override {
        for (int w : watches_) inotify_rm_watch(fd_, w);
        watches_.clear();
        for (const std::filesystem::path& dir : directories) {
            int w = inotify_add_watch(fd_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY);
            if (w >= 0) watches_.push_back(w);
        }
    }

    bool drain() override {
        alignas(inotify_event) char buffer[4096];
        bool any = false;
        while (read(fd_, buffer, sizeof(buffer)) > 0) any = true;
        return any;
    }

private:
    int fd_;
    std::vector<int> watches_;
};

#elif defined(_WIN32)

// One change-notification handle per directory; signalled handles are re-armed.
class WindowsEvents final : public DirectoryEvents {
public:
    ~WindowsEvents() override { closeAll(); }

    void watch(const std::set<std::filesystem::path>& directories) override {
        closeAll();
        for (const std::filesystem::path& dir : directories) {
            HANDLE h = FindFirstChangeNotificationW(
                dir.c_str(), FALSE, FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_LAST_WRITE | FILE_NOTIFY_CHANGE_SIZE);
            if (h != INVALID_HANDLE_VALUE) handles_.push_back(h);
        }
    }

    bool drain() override {
        bool any = false;
        for (HANDLE h : handles_) {
            if (WaitForSingleObject(h, 0) != WAIT_OBJECT_0) continue;
            any = true;
            FindNextChangeNotification(h); // re-arms; changes since then signal again
        }
        return any;
    }

private:
    void closeAll() {
        for (HANDLE h : handles_) FindCloseChangeNotification(h);
        handles_.clear();
    }

    std::vector<HANDLE> handles_;
};

#endif

} // namespace

std::unique_ptr<DirectoryEvents> DirectoryEvents::open() {
#if defined(__linux__)
    const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return nullptr;
    return std::make_unique<InotifyEvents>(fd);
#elif defined(_WIN32)
    return std::make_unique<WindowsEvents>();
#else
    return nullptr;
#endif
}

} // namespace sculptflow
