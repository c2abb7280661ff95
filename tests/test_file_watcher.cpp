// FileWatcher: the platform's notifications (inotify on Linux, change
// notifications on Windows, run under Wine in CI) and the polling fallback.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "host/file_watcher.hpp"
#include "test_support.hpp"

namespace sculptflow {
namespace {

// A watched file, dated an hour back so that a rewrite always has a new time.
std::filesystem::path oldFile(const test::ScratchDir& dir, const std::string& name) {
    const std::filesystem::path file = dir / name;
    test::writeFile(file, "old");
    std::filesystem::last_write_time(file, std::filesystem::file_time_type::clock::now() - std::chrono::hours(1));
    return file;
}

// Asks for a while (two seconds by default): notifications may arrive a little after the write.
bool changedSoon(FileWatcher& watcher, int tries = 100) {
    for (int i = 0; i < tries; ++i) {
        if (watcher.changed()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

void expectSeesRewritesOnly(bool useNotifications) {
    test::ScratchDir dir;
    const std::filesystem::path file = oldFile(dir, "deform.comp");
    FileWatcher watcher(useNotifications);
    watcher.watch({file});
    EXPECT_FALSE(watcher.changed());

    test::writeFile(dir / "deform.comp.swp", "an editor's swap file");
    EXPECT_FALSE(changedSoon(watcher, 10)) << "an unwatched file in the same folder";

    test::writeFile(file, "new");
    EXPECT_TRUE(changedSoon(watcher));
    EXPECT_FALSE(watcher.changed()) << "reported once";

    std::filesystem::remove(file);
    EXPECT_TRUE(changedSoon(watcher)) << "removed";
}

TEST(FileWatcher, NotificationsSeeRewritesOfWatchedFilesOnly) {
    FileWatcher probe(true);
#if defined(__linux__) || defined(_WIN32)
    EXPECT_TRUE(probe.usesNotifications());
#endif
    expectSeesRewritesOnly(true);
}

TEST(FileWatcher, PollingSeesRewritesOfWatchedFilesOnly) {
    EXPECT_FALSE(FileWatcher(false).usesNotifications());
    expectSeesRewritesOnly(false);
}

} // namespace
} // namespace sculptflow
