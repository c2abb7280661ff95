#version 460
// Moves each vertex through the move tool's velocity field: one invocation per
// vertex, running the same driver as the CPU reference (sculptflow/integrate.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

// The specialization constants, one row each in variant_options.glsl (with what
// each means), and the passes that `pass` names.
#define SF_VARIANT_OPTION(type, name, hostName, id, value, readBy) layout(constant_id = id) const type name = value;
#define SF_SIZING_OPTION(type, name, hostName, id, value) layout(constant_id = id) const type name = value;
#define SF_WORKGROUP_SIZE(hostName, id, value) layout(local_size_x = value, local_size_x_id = id) in;
#define SF_INTERFACE_VERSION(name, id, version) layout(constant_id = id) const int name = version;
#include "sculptflow/variant_options.glsl"
#include "sculptflow/deform_passes.glsl"

#include "sculptflow/layout.glsl"
#include "sculptflow/methods.glsl"
#include "sculptflow/kinds.glsl"

int toolKind(int i) {
    return int((toolKinds >> (2u * uint(i))) & 3u);
}

int toolShape(int i) {
    return int((toolShapes >> (2u * uint(i))) & 3u);
}

layout(std140, set = 0, binding = 0) uniform ToolBlock {
    Tool tools[SF_MAX_TOOLS];
};

layout(std430, set = 0, binding = 1) readonly buffer InputPositions { float inputPositions[]; };
layout(std430, set = 0, binding = 2) writeonly buffer OutputPositions { float outputPositions[]; };
// flags, accepted steps, rejected steps, evaluations per vertex; bound only with writeStatistics.
layout(std430, set = 0, binding = 3) writeonly buffer Statistics { uvec4 statistics[]; };

// Compaction scratch (passes 1-6), host/deform_recorder.hpp DeformScratch: a bin code
// per vertex (without sortedBlocks), the active list, and the counters.
layout(std430, set = 0, binding = 4) buffer VertexBins { uint vertexBins[]; };
layout(std430, set = 0, binding = 5) buffer ActiveList { uint activeList[]; };
// [0, 3 × kMaxSlices): VkDispatchIndirectCommand per slice of the list; then the
// active count, the bin counts, the bin cursors, the VkDispatchIndirectCommand of
// the listed blocks, their count and their list.
layout(std430, set = 0, binding = 6) buffer Counters { uint counters[]; };
// With sortedBlocks: the vertices block by block, and each block's sphere (xyz centre, w radius).
layout(std430, set = 0, binding = 7) readonly buffer VertexOrder { uint vertexOrder[]; };
layout(std430, set = 0, binding = 8) readonly buffer BlockSpheres { vec4 blockSpheres[]; };
layout(std430, set = 0, binding = 9) readonly buffer MaskValues { float maskValues[]; };
layout(std430, set = 0, binding = 10) writeonly buffer VolumeChanges { float volumeChanges[]; };
layout(std430, set = 0, binding = 11) buffer CarriedBounds { float carriedBounds[]; };

const uint kBinCount = 16u;
// Passes 1 and 3: vertices per lane (over sorted blocks a quarter of a range's),
// and a workgroup's times as many (a vertex block with sortedBlocks): DeformSizing.
const uint kVerticesPerLane = sortedBlocks ? (rangeVerticesPerLane >= 4u ? rangeVerticesPerLane / 4u : 1u)
                                           : rangeVerticesPerLane;
const uint kBlockVertices = gl_WorkGroupSize.x * kVerticesPerLane;
const uint kCulledBin = 0xffffffffu;
const uint kMaxSlices = 64u;            // keep equal to kDeformMaxSlices in deform_recorder.hpp
const uint kActiveCountAt = 3u * kMaxSlices;
const uint kBinCountsAt = kActiveCountAt + 1u;
const uint kBinCursorsAt = kBinCountsAt + kBinCount;
const uint kBlockArgumentsAt = kBinCursorsAt + kBinCount;
const uint kBlockCountAt = kBlockArgumentsAt + 3u;
const uint kBlockListAt = kBlockCountAt + 1u;

layout(push_constant) uniform Push {
    SolverSettings settings;
    VertexLayout vertexLayout;
};

#include "sculptflow/field_common.glsl"
#define SF_KIND_CODE
#include "sculptflow/kinds.glsl"
#include "sculptflow/field.glsl"
#include "sculptflow/steppers.glsl"
#include "sculptflow/controller.glsl"
#include "sculptflow/volume_change.glsl"
#include "sculptflow/error_growth.glsl"
#include "sculptflow/integrate.glsl"

void writePosition(uint v, vec3 position) {
    uint out0 = vertexLayout.outputOffset + v * vertexLayout.outputStride;
    outputPositions[out0] = position.x;
    outputPositions[out0 + 1] = position.y;
    outputPositions[out0 + 2] = position.z;
}

void writeVertex(uint v, VertexResult r) {
    writePosition(v, r.position);
    if (writeStatistics) {
        statistics[v] = uvec4(r.flags, r.acceptedSteps, r.rejectedSteps, r.evaluations);
    }
    if (computeVolumeChange) volumeChanges[v] = r.volumeChange;
}

vec3 readVertex(uint v) {
    uint in0 = vertexLayout.inputOffset + v * vertexLayout.inputStride;
    return vec3(inputPositions[in0], inputPositions[in0 + 1], inputPositions[in0 + 2]);
}

float maskAt(uint v) {
    return hasMask ? maskValues[vertexLayout.maskOffset + v * vertexLayout.maskStride] : 1.0f;
}

// Not integrated: out of every tool's reach, or frozen by the mask (0 or NaN).
bool skipped(uint v, vec3 x0) {
    return !(maskAt(v) > 0.0f) || (allFinite(x0) && outOfReach(x0, settings.tolerance));
}

// llvmpipe (lavapipe) ends every loop of an invocation, silently, once its loops
// have run 65535 iterations in all (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS, shared by
// a SIMD group's lanes). Rolled, eight tools' loops took ~90 of them an attempt
// (SF_UNROLL unrolls them now), so a group that needed ~700 attempts got there,
// and what its loops computed after that was partial: seed 30416's vertex 371
// ended 0.037 voxel off, unflagged. A loop whose trip count the compiler cannot
// know, run last, makes its two trips only while that budget lasts; where it does
// not, every integrated lane of the group is flagged, since all of them ran loops
// after it ran out (the group waits for its longest lane between the passes).
bool loopBudgetLasted() {
    int trips = settings.maxAttempts > 0 ? 2 : 3;
    int ran = 0;
    for (int i = 0; i < trips; ++i) ++ran;
    return ran == trips;
}

void solveVertex(uint v) {
    VertexResult r = integrateMaskedVertex(readVertex(v), maskAt(v), carryBound ? carriedBounds[v] : 0.0f);
    if (!loopBudgetLasted() && (r.flags & (kFlagCulled | kFlagNonFinite)) == 0u) {
        r.flags |= kFlagIterationCap;
        r.errorBound = kBoundLost;
    }
    writeVertex(v, r);
    if (carryBound) carriedBounds[v] = r.errorBound;
}

// Lanes of one SIMD group should need similar numbers of attempts: the work
// falls with the distance to the tip's path in units of the tool's radius, so
// the bins are logarithmic in that ratio (bin 4: one radius, 8: three, 12: seven).
uint distanceBin(vec3 x0) {
    if (!allFinite(x0)) return kBinCount - 1u; // integrateVertex flags it at once
    float ratio = 3.0e38f;
    for (int i = 0; i < toolCount; ++i)
        ratio = min(ratio, distanceToToolPath(i, x0) / max(tools[i].outerRadius, 1.0e-30f));
    float b = 4.0f * log2(1.0f + ratio);
    return b >= float(kBinCount - 1u) || !(b >= 0.0f) ? kBinCount - 1u : uint(b);
}

// Passes 1 and 3 over one group of kBlockVertices vertices (with sortedBlocks, a
// listed block). They are cheap per vertex, so each invocation takes
// kVerticesPerLane of them (a workgroup apart, so lanes stay on neighbours): llvmpipe's
// cost per workgroup dominated them with one vertex a lane.
void markOrScatterGroup(uint block, bool writeCulled) {
    uint groupStart = block * kBlockVertices + gl_LocalInvocationID.x;
    for (uint k = 0u; k < kVerticesPerLane; ++k) {
        uint local = groupStart + k * gl_WorkGroupSize.x;
        if (local >= vertexLayout.vertexCount) break;
        uint v = sortedBlocks ? vertexOrder[local] : vertexLayout.firstVertex + local;
        if (pass == kDeformPassMark) {
            vec3 x0 = readVertex(v);
            if (skipped(v, x0)) {
                VertexResult r;
                r.position = x0;
                r.flags = kFlagCulled;
                r.acceptedSteps = 0u;
                r.rejectedSteps = 0u;
                r.evaluations = 0u;
                r.volumeChange = 1.0f;
                r.errorBound = 0.0f;
                r.estimateSum = 0.0f;
                r.growth = 1.0f;
                if (writeCulled) writeVertex(v, r);
                if (!sortedBlocks) vertexBins[v] = kCulledBin;
            } else if (sortedBlocks) {
                // Blocks are spatially tight: in block order, neighbouring lanes
                // already do similar work, so no bins and no scatter pass.
                activeList[atomicAdd(counters[kBinCountsAt], 1u)] = v;
            } else {
                uint b = distanceBin(x0);
                vertexBins[v] = b;
                atomicAdd(counters[kBinCountsAt + b], 1u);
            }
        } else if (pass == kDeformPassScatter) {
            // Global atomics per vertex: a workgroup-shared count first would need
            // barrier(), which llvmpipe runs as coroutines, and measured slower.
            uint b = vertexBins[v];
            if (b != kCulledBin) activeList[atomicAdd(counters[kBinCursorsAt + b], 1u)] = v;
        }
    }
}

void main() {
    if (pass == kDeformPassScan) {
        // One invocation: 16 bins and at most kMaxSlices slices.
        if (gl_GlobalInvocationID.x != 0u) return;
        uint total = 0u;
        for (uint b = 0u; b < kBinCount; ++b) {
            counters[kBinCursorsAt + b] = total;
            total += counters[kBinCountsAt + b];
        }
        counters[kActiveCountAt] = total;
        // vertexLayout.vertexCount: workgroups per slice; firstVertex: the slices recorded.
        uint groups = (total + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;
        for (uint slice = 0u; slice < vertexLayout.firstVertex && slice < kMaxSlices; ++slice) {
            uint start = slice * vertexLayout.vertexCount;
            counters[3u * slice] = groups > start ? min(groups - start, vertexLayout.vertexCount) : 0u;
            counters[3u * slice + 1u] = 1u;
            counters[3u * slice + 2u] = 1u;
        }
        return;
    }
    uint local = gl_GlobalInvocationID.x;
    if (pass == kDeformPassSolveRange) {
        // One call site: the driver inlines solveVertex, the bulk of the shader, once
        // per call. One pipeline serves the range and the list: it is the costly build.
        // The other passes run a build without it (SF_WITHOUT_SOLVE, host/deform_pipeline.hpp),
        // which holds no solver at all and builds in about a fiftieth of the time.
        uint vertex;
        if (vertexLayout.vertexCount == 0u) {
            // firstVertex: where this slice starts in the list.
            uint i = vertexLayout.firstVertex + local;
            if (i >= counters[kActiveCountAt]) return;
            vertex = activeList[i];
        } else {
            if (local >= vertexLayout.vertexCount) return;
            vertex = vertexLayout.firstVertex + local;
        }
#ifndef SF_WITHOUT_SOLVE
        solveVertex(vertex);
#endif
        return;
    }
    if (pass == kDeformPassRestore) {
        uint i = vertexLayout.firstVertex + local;
        if (i >= counters[kActiveCountAt]) return;
        uint v = activeList[i];
        vec3 x0 = readVertex(v);
        // This run writes the vertices it solves; only those it skips need their input back.
        if (skipped(v, x0)) writePosition(v, x0);
        return;
    }
    bool writeCulled = !sortedBlocks || writeStatistics;
    if (pass == kDeformPassBlocks) {
        // vertexLayout.firstVertex: the most workgroups one dispatch may have. The
        // mark takes a workgroup a listed block, and loops when more are listed.
        if (gl_GlobalInvocationID.x == 0u) {
            counters[kBlockArgumentsAt + 1u] = 1u;
            counters[kBlockArgumentsAt + 2u] = 1u;
        }
        uint blocks = (vertexLayout.vertexCount + kBlockVertices - 1u) / kBlockVertices;
        for (uint block = gl_GlobalInvocationID.x; block < blocks; block += gl_NumWorkGroups.x * gl_WorkGroupSize.x) {
            vec4 sphere = blockSpheres[block];
            // A negative radius: the mask freezes every vertex of the block (DeformScratch::freezeBlocks).
            if (writeCulled || (sphere.w >= 0.0f && sphereInReach(sphere.xyz, sphere.w, settings.tolerance))) {
                uint listed = atomicAdd(counters[kBlockCountAt], 1u);
                counters[kBlockListAt + listed] = block;
                atomicMax(counters[kBlockArgumentsAt], min(listed + 1u, vertexLayout.firstVertex));
            }
        }
        return;
    }
    if (sortedBlocks) {
        for (uint listed = gl_WorkGroupID.x; listed < counters[kBlockCountAt]; listed += gl_NumWorkGroups.x)
            markOrScatterGroup(counters[kBlockListAt + listed], writeCulled);
    } else {
        markOrScatterGroup(gl_WorkGroupID.x, writeCulled);
    }
}
