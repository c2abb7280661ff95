// A progress ticker for long commands: the current stage and the elapsed time on one line.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace sculptflow::cli {

// Draws "<spinner> <stage>  <seconds>" on `stream`, redrawn in place, once the work
// has taken longer than `delay`; stop() (or the destructor) erases it. The stages'
// lengths are unknown in advance, so it shows liveness, not a fraction done.
// Disabled, it starts no thread and writes nothing: pipes and CI logs stay clean.
class ProgressTicker {
public:
    ProgressTicker(std::FILE* stream, bool enabled,
                   std::chrono::milliseconds delay = std::chrono::seconds(1));
    ~ProgressTicker();
    ProgressTicker(const ProgressTicker&) = delete;
    ProgressTicker& operator=(const ProgressTicker&) = delete;

    // Names the stage now running; safe from any thread.
    void stage(std::string name);
    // Stops the thread and erases the line if one was drawn. Idempotent.
    void stop();

    // Whether `stream` is an interactive terminal (isatty).
    static bool isTerminal(std::FILE* stream);

private:
    void loop();
    void draw(double seconds);

    std::FILE* stream_;
    std::chrono::milliseconds delay_;
    std::chrono::steady_clock::time_point begin_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::string stage_;
    size_t drawnWidth_ = 0; // characters on the line now, to erase
    unsigned frame_ = 0;
    std::thread thread_;
};

} // namespace sculptflow::cli
