// The pipelines every LiveMove of one Context shares: deform.comp's variants,
// normals.comp and restore.comp. Built once per Context (at a prewarm, or at the
// first begin() that needs them), destroyed with it; guarded by a mutex so that
// LiveMoves on several threads may build and record at once.
#pragma once

#include <memory>
#include <mutex>
#include <span>

#include "deform_pipeline.hpp"
#include "deform_recorder.hpp"
#include "vertex_pass_pipeline.hpp"

namespace sculptflow {

class LivePipelines {
public:
    explicit LivePipelines(const Context& context);

    // Builds what a LiveMove's solve of `kernel` records, where not built yet;
    // returns how many pipelines it created.
    uint32_t buildDeform(const kernel::Kernel& kernel, bool statistics, bool mask);

    // Held while recording with the pipelines (a map lookup), and while building.
    std::mutex& mutex() { return mutex_; }
    DeformPipelines& deform() { return deform_; }
    const VertexPassPipeline& normals() const { return normals_; }
    const VertexPassPipeline& restore() const { return restore_; }
    // Pipelines created so far (tests: none after a prewarm).
    uint64_t created() const { return created_; }

    // Hot reload: every deform variant rebuilt from `shader`, swapped in for the
    // next record(); the old ones are retired, not destroyed (frames in flight may
    // use them). Throws sculptflow::Error, keeping the old ones, when a build fails.
    void replaceDeformShader(const DeformShader& shader);
    // Destroys the retired pipelines; how many there were.
    size_t releaseRetired();
    ~LivePipelines();

private:
    std::mutex mutex_;
    DeformPipelines deform_;
    VertexPassPipeline normals_;
    VertexPassPipeline restore_;
    DeformScratch unsortedScratch_; // stands for a LiveMove's: compaction without sorted blocks
    DeformPipelines::Retired retired_;
    const Context& context_;
    uint64_t created_ = 0;
};

// The Context's LivePipelines, made on first use.
LivePipelines& livePipelines(const Context& context);

} // namespace sculptflow
