// A recorded stroke played back as a live drag: which frame grabs, drags, releases
// and resets, and the tools' poses at any point of the stroke.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <sculptflow/stroke.hpp>

namespace sculptflow::viewer {

// What one frame does. A loop is: grab (frame 0, pose B = pose A, nothing
// moves), drag (frames 1 … dragFrames−1 at u = frame/(dragFrames−1) of the
// stroke), release after the last drag frame, then hold the committed shape
// for holdFrames; the next loop starts with a reset to the undeformed mesh.
struct PlaybackFrame {
    bool reset = false;   // put the undeformed mesh back before grabbing again
    bool grab = false;    // LiveMove::begin with the stroke's first poses
    bool drag = false;    // LiveMove::update with the poses at `u`
    bool release = false; // LiveMove::commit after this frame is recorded
    double u = 0.0;       // fraction of the stroke's duration
};

// The schedule above for frame `frame` (0-based). dragFrames ≥ 1; without
// `loop` the shape holds after the first release for ever.
PlaybackFrame playbackFrame(uint64_t frame, uint32_t dragFrames, uint32_t holdFrames, bool loop);

// One tool's pose at `time` (seconds): position and scale interpolated linearly,
// orientation by slerp on the short arc, between the recorded poses around it;
// clamped to the first and last pose. Allocates nothing.
Pose poseAt(const ToolStroke& tool, double time);

// The poses of all of a stroke's tools, from its first recorded time to its last.
class StrokePlayback {
public:
    explicit StrokePlayback(const Stroke& stroke);

    const Stroke& stroke() const { return stroke_; }
    // The mirror planes the stroke plays with (LiveMove::begin reads them).
    void setSymmetry(const Symmetry& symmetry) { stroke_.symmetry = symmetry; }
    // Each tool's first pose: pose A of every drag.
    std::span<const Pose> posesA() const { return posesA_; }
    // Each tool's pose at the fraction u ∈ [0, 1] of the stroke's time span, as a
    // pose B later in time than pose A (LiveMove::update requires it). Allocates
    // nothing; the span stays valid until the next call.
    std::span<const Pose> posesAt(double u);
    double duration() const { return end_ - start_; }

private:
    Stroke stroke_;
    std::vector<Pose> posesA_;
    std::vector<Pose> posesB_;
    double start_ = 0.0;
    double end_ = 0.0;
};

} // namespace sculptflow::viewer
