// Per-second averages of frame rate and solver GPU time.
#include "frame_stats.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace sculptflow::viewer {

bool FrameStats::frame(const RecordReport& report, double gpuMilliseconds, Clock::time_point now) {
    ++frames_;
    if (!started_) {
        started_ = true;
        periodStart_ = now;
    }
    ++periodFrames_;
    chunksTotal_ = report.chunksTotal;
    if (report.recorded && report.chunksSolved + report.chunksRestored > 0) lastChunksSolved_ = report.chunksSolved;
    if (report.recorded && std::isfinite(gpuMilliseconds)) {
        periodSolverMs_ += gpuMilliseconds;
        ++periodTimed_;
    }
    const double seconds = std::chrono::duration<double>(now - periodStart_).count();
    if (seconds < 1.0) return false;
    fps_ = periodFrames_ / seconds;
    solverMs_ = periodTimed_ ? periodSolverMs_ / periodTimed_ : std::numeric_limits<double>::quiet_NaN();
    chunksSolved_ = lastChunksSolved_;
    periodStart_ = now;
    periodFrames_ = 0;
    periodSolverMs_ = 0.0;
    periodTimed_ = 0;
    return true;
}

std::string FrameStats::summary() const {
    char text[160];
    if (std::isfinite(solverMs_))
        std::snprintf(text, sizeof(text), "%.1f fps | solver %.2f ms GPU | chunks %u/%u solved", fps_, solverMs_,
                      chunksSolved_, chunksTotal_);
    else
        std::snprintf(text, sizeof(text), "%.1f fps | solver idle | chunks %u/%u solved", fps_, chunksSolved_,
                      chunksTotal_);
    return text;
}

} // namespace sculptflow::viewer
