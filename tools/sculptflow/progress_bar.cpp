// A progress ticker for long commands: the current stage and the elapsed time on one line.
#include "progress_bar.hpp"

#include <algorithm>

#include "host_system.hpp"

namespace sculptflow::cli {
namespace {
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr char kSpinner[] = {'|', '/', '-', '\\'};
} // namespace

ProgressTicker::ProgressTicker(std::FILE* stream, bool enabled, std::chrono::milliseconds delay)
    : stream_(stream), delay_(delay), begin_(std::chrono::steady_clock::now()) {
    if (enabled) thread_ = std::thread([this] { loop(); });
}

ProgressTicker::~ProgressTicker() { stop(); }

void ProgressTicker::stage(std::string name) {
    std::lock_guard lock(mutex_);
    stage_ = std::move(name);
}

void ProgressTicker::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool ProgressTicker::isTerminal(std::FILE* stream) { return cli::isTerminal(stream); }

void ProgressTicker::loop() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, kRedrawInterval, [this] { return stopping_; })) {
        auto elapsed = std::chrono::steady_clock::now() - begin_;
        if (elapsed >= delay_) draw(std::chrono::duration<double>(elapsed).count());
    }
    if (drawnWidth_ > 0) {
        // Spaces, not an ANSI erase, so that any terminal is left clean.
        std::fprintf(stream_, "\r%*s\r", int(drawnWidth_), "");
        std::fflush(stream_);
        drawnWidth_ = 0;
    }
}

void ProgressTicker::draw(double seconds) {
    char line[160];
    int width = std::snprintf(line, sizeof line, "%c %s  %.1f s", kSpinner[frame_++ % sizeof kSpinner],
                              stage_.c_str(), seconds);
    if (width < 0) return;
    size_t length = std::min(size_t(width), sizeof line - 1);
    // Pad over a longer previous line instead of erasing first, so it never flickers.
    int pad = drawnWidth_ > length ? int(drawnWidth_ - length) : 0;
    std::fprintf(stream_, "\r%s%*s", line, pad, "");
    std::fflush(stream_);
    drawnWidth_ = length + size_t(pad);
}

} // namespace sculptflow::cli
