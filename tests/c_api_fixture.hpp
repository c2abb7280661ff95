// The C API tests' shared setup: C++ values as the C structs a plugin would fill
// (poses, tools, an adopted device, a live move's mesh), and a fixture whose C
// context adopts the test renderer's device and records frames through C.
#pragma once

#include <sculptflow/sculptflow.h>

#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "live_move_fixture.hpp"

namespace sculptflow::test {

inline SfPose cApiPose(const Pose& p) {
    return {{p.position.x, p.position.y, p.position.z},
            {p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z},
            p.scale,
            p.time};
}

// A stroke's tools as C structs (`info` points into `tools`: not copyable).
struct CApiTools {
    explicit CApiTools(const Stroke& stroke) {
        for (const ToolStroke& t : stroke.tools)
            tools.push_back({SfToolKind(t.kind), SfKelvinletProfile(t.profile), SfFalloff(t.falloff), t.innerRadius,
                             t.outerRadius, t.stiffness, t.compressibility});
        SF_INIT_STRUCT(&info);
        info.toolCount = uint32_t(tools.size());
        info.tools = tools.data();
        info.voxelSize = stroke.voxelSize;
        info.symmetryAxes = stroke.symmetry.axes;
        for (int axis = 0; axis < 3; ++axis) info.symmetryOrigin[axis] = stroke.symmetry.origin[axis];
    }
    CApiTools(const CApiTools&) = delete;
    std::vector<SfTool> tools;
    SfTools info;
};

// The renderer's device, as a plugin hands it over.
inline SfContextCreateInfo cApiAdoptInfo(const AdoptedDevice& a) {
    SfContextCreateInfo info;
    SF_INIT_STRUCT(&info);
    info.instance = a.instance;
    info.physicalDevice = a.physicalDevice;
    info.device = a.device;
    info.queueFamily = a.queueFamily;
    info.queue = a.queue;
    info.getInstanceProcAddr = a.loader.getInstanceProcAddr;
    return info;
}

// A RendererMesh (and its triangles) as SfLiveMoveCreateInfo; chunks and the
// other streams are the caller's to add.
inline SfLiveMoveCreateInfo cApiLiveInfo(const RendererMesh& mesh, std::span<const uint32_t> triangles) {
    SfLiveMoveCreateInfo info;
    SF_INIT_STRUCT(&info);
    info.vertexCount = mesh.vertexCount;
    info.positions = {mesh.positions.buffer, mesh.positions.offset, mesh.positions.stride};
    info.normals = {mesh.normals.buffer, mesh.normals.offset, mesh.normals.stride};
    info.triangles = triangles.data();
    info.triangleCount = uint32_t(triangles.size() / 3);
    return info;
}

class CApiFixture : public LiveMoveFixture {
protected:
    // A C context on the renderer's device; null (with a failure) when refused.
    SfContext adoptC(const SfContextCreateInfo& info) {
        SfContext context = nullptr;
        EXPECT_EQ(sfCreateContext(&info, &context), SF_SUCCESS) << sfGetLastError(nullptr);
        return context;
    }
    SfContext adoptC() { return adoptC(cApiAdoptInfo(renderer_->adopted())); }

    // One frame through C: record (with `sync`), submit, wait, acknowledge.
    SfRecordReport cFrame(SfLiveMove live, const SfRecordSync* sync = nullptr) {
        SfRecordReport r;
        SF_INIT_STRUCT(&r);
        EXPECT_EQ(sfLiveMoveRecord(live, renderer_->begin(), sync, &r), SF_SUCCESS) << sfLiveMoveGetLastError(live);
        renderer_->submitAndWait();
        EXPECT_EQ(sfLiveMoveSubmitted(live, r.ticket), SF_SUCCESS) << sfLiveMoveGetLastError(live);
        return r;
    }
    // Frames until the move is over (a frame recorded nothing).
    void cFramesUntilOver(SfLiveMove live) {
        for (int guard = 0; guard < 100 && cFrame(live).recorded; ++guard) {}
    }
};

} // namespace sculptflow::test
