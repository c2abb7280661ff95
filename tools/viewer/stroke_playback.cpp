// The loop schedule and pose interpolation of a stroke played back as a drag.
#include "stroke_playback.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include <sculptflow/error.hpp>

namespace sculptflow::viewer {

PlaybackFrame playbackFrame(uint64_t frame, uint32_t dragFrames, uint32_t holdFrames, bool loop) {
    dragFrames = std::max(dragFrames, 1u);
    const uint64_t period = uint64_t(dragFrames) + holdFrames;
    PlaybackFrame out;
    if (!loop && frame >= dragFrames) return out; // holding the committed shape
    const uint64_t f = loop ? frame % period : frame;
    out.reset = f == 0 && frame > 0;
    out.grab = f == 0;
    if (f < dragFrames) {
        out.drag = f > 0;
        out.u = dragFrames > 1 ? double(f) / double(dragFrames - 1) : 0.0;
        out.release = f == dragFrames - 1;
    }
    return out;
}

Pose poseAt(const ToolStroke& tool, double time) {
    const std::vector<Pose>& poses = tool.poses;
    if (time <= poses.front().time) return poses.front();
    if (time >= poses.back().time) return poses.back();
    // The first pose later than `time`; times strictly increase along a stroke.
    const auto after = std::upper_bound(poses.begin(), poses.end(), time,
                                        [](double t, const Pose& p) { return t < p.time; });
    const Pose& a = *(after - 1);
    const Pose& b = *after;
    const double w = (time - a.time) / (b.time - a.time);
    Pose out;
    out.position = glm::mix(a.position, b.position, w);
    out.orientation = glm::normalize(glm::slerp(a.orientation, glm::dot(a.orientation, b.orientation) < 0.0
                                                                   ? -b.orientation
                                                                   : b.orientation,
                                                w));
    out.scale = a.scale + w * (b.scale - a.scale);
    out.time = time;
    return out;
}

StrokePlayback::StrokePlayback(const Stroke& stroke) : stroke_(stroke) {
    if (stroke_.tools.empty()) throw Error("stroke: no tools to play back");
    start_ = stroke_.tools.front().poses.front().time;
    end_ = stroke_.tools.front().poses.back().time;
    for (const ToolStroke& tool : stroke_.tools) {
        if (tool.poses.size() < 2) throw Error("stroke: a tool has fewer than two poses");
        posesA_.push_back(tool.poses.front());
        start_ = std::min(start_, tool.poses.front().time);
        end_ = std::max(end_, tool.poses.back().time);
    }
    posesB_ = posesA_;
}

std::span<const Pose> StrokePlayback::posesAt(double u) {
    const double time = start_ + std::clamp(u, 0.0, 1.0) * (end_ - start_);
    for (size_t i = 0; i < stroke_.tools.size(); ++i) {
        posesB_[i] = poseAt(stroke_.tools[i], time);
        // A tool that starts later than the stroke stands still until it does; its
        // pose B must still be later than its pose A.
        const double earliest = posesA_[i].time + 1e-6 * std::max(1.0, end_ - start_);
        posesB_[i].time = std::max(posesB_[i].time, earliest);
    }
    return posesB_;
}

} // namespace sculptflow::viewer
