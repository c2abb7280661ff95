// Frame rate, the solver's GPU time and chunks solved, averaged over about a second:
// for the window title and a line a second on stdout.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include <sculptflow/live_move.hpp>

namespace sculptflow::viewer {

class FrameStats {
public:
    using Clock = std::chrono::steady_clock;

    // Counts one presented frame: its record report and the solver's GPU time
    // of a recent frame (NaN: none yet). True when a second has passed since the
    // last report: then fps(), solverMilliseconds() … describe that second.
    bool frame(const RecordReport& report, double gpuMilliseconds, Clock::time_point now = Clock::now());

    double fps() const { return fps_; }
    double solverMilliseconds() const { return solverMs_; } // NaN: no solve timed in the period
    uint32_t chunksSolved() const { return chunksSolved_; } // in the period's last solved frame
    uint32_t chunksTotal() const { return chunksTotal_; }
    uint64_t frames() const { return frames_; }

    // "59.9 fps | solver 3.21 ms GPU | chunks 40/64 solved"
    std::string summary() const;

private:
    Clock::time_point periodStart_{};
    bool started_ = false;
    uint32_t periodFrames_ = 0;
    double periodSolverMs_ = 0.0;
    uint32_t periodTimed_ = 0;
    uint64_t frames_ = 0;
    double fps_ = 0.0;
    double solverMs_ = 0.0;
    uint32_t lastChunksSolved_ = 0;
    uint32_t chunksSolved_ = 0;
    uint32_t chunksTotal_ = 0;
};

} // namespace sculptflow::viewer
