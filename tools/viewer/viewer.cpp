// The frame loop: set-up in dependency order, per-frame record / submit / present,
// resize, captures, and teardown in reverse order.
#include "viewer.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include <glm/gtc/matrix_transform.hpp>

#include <sculptflow/context.hpp>
#include <sculptflow/error.hpp>
#include <sculptflow/hot_reload.hpp>
#include "host/render_target.hpp"
#include "host/vulkan_check.hpp"
#include "chunked_mesh.hpp"
#include "frame_ring.hpp"
#include "frame_stats.hpp"
#include "live_mesh.hpp"
#include "live_settings.hpp"
#include "mesh_pipeline.hpp"
#include "painted_mask.hpp"
#include "screenshot.hpp"
#include "swapchain.hpp"
#include "tool_gizmos.hpp"
#include "viewer_device.hpp"
#include "viewer_symmetry.hpp"
#include "window.hpp"

namespace sculptflow::viewer {
namespace {

// Linear light: ambient, key and fill (directions in view space: x right, y up, z to the eye).
constexpr float kAmbient = 0.15f, kKey = 0.8f, kFill = 0.25f;
const glm::vec3 kKeyDirection = glm::normalize(glm::vec3(-0.5f, 0.8f, 0.6f));
const glm::vec3 kFillDirection = glm::normalize(glm::vec3(0.8f, -0.2f, 0.5f));
const glm::vec3 kBackground{0.94f, 0.94f, 0.95f}; // sRGB
const glm::vec3 kClay{0.80f, 0.60f, 0.48f};       // sRGB
constexpr float kChunkShade = 0.2f; // with --show-chunks
const glm::vec3 kToolColor{0.95f, 0.45f, 0.10f}; // sRGB: the tools' gizmos
const glm::vec3 kCopyColor{0.20f, 0.55f, 0.95f}; // sRGB: their mirrored copies'

float srgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
glm::vec3 srgbToLinear(const glm::vec3& c) { return {srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b)}; }

// The points the camera frames: the undeformed mesh and the part of it near each
// tool (within twice its outer radius of its start) carried along by the tool's
// whole travel, which bounds where a drag takes what it grabs.
std::vector<std::vector<glm::vec3>> framedPoints(const std::vector<glm::vec3>& voxels, const Move& move) {
    std::vector<std::vector<glm::vec3>> sets{voxels};
    for (const ToolMotion& tool : move.tools) {
        const glm::dvec3 start = tool.origin;
        const double near = 2.0 * tool.outerRadius;
        std::vector<glm::vec3> moved;
        for (const glm::vec3& p : voxels)
            if (glm::length(glm::dvec3(p) - start) <= near) moved.push_back(p + glm::vec3(tool.translation));
        sets.push_back(std::move(moved));
    }
    return sets;
}

// The evaluations map's full scale: red at this many right-hand-side evaluations
// a vertex or more (bs32's default budget allows 196; a vertex near the tip takes 50–90).
constexpr float kEvaluationsScale = 100.0f;

// The heat map's full scale, voxels: the farthest a tool's tip travels (at least 1).
float heatMapScale(const Move& move) {
    double scale = 1.0;
    for (const ToolMotion& tool : move.tools) scale = std::max(scale, glm::length(tool.translation));
    return float(scale);
}

class Viewer {
public:
    Viewer(const ViewerOptions& options, std::atomic<int>& validationMessages);
    ~Viewer();
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    ViewerResult run();

private:
    bool windowed() const { return window_ != nullptr; }
    void recreateSwapchain();
    void updateCamera();
    // Hands settings_ to the mesh and frames the camera for them. The GPU must be
    // idle: the mask is written through its mapping.
    void applySettings();
    // A key's toggle: applied, then the drag starts again from a reset.
    void toggle(int key);
    // Renders one frame; false when the swapchain had to be recreated first (no frame drawn).
    bool renderFrame();
    // --shaders: a changed shader swapped in between frames; the replaced pipelines
    // released once no frame recorded with them can be in flight.
    void pollShaders();
    void finish(ViewerResult& result);

    ViewerOptions options_;
    // Declared in creation order: destroyed in reverse, after the destructor idles the device.
    std::unique_ptr<Window> window_;
    std::unique_ptr<ViewerDevice> device_;
    std::unique_ptr<WindowSurface> surface_;
    std::unique_ptr<Context> context_;
    std::unique_ptr<FrameRing> ring_;
    std::unique_ptr<MeshPipeline> pipeline_;
    std::unique_ptr<Swapchain> swapchain_;
    std::unique_ptr<RenderTarget> target_;
    std::unique_ptr<LiveMesh> mesh_;
    std::unique_ptr<ToolGizmos> gizmos_;
    std::unique_ptr<ShaderReloader> reloader_;
    uint64_t releaseRetiredAt_ = 0; // the frame from which the replaced pipelines can go; 0: none

    VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
    std::vector<glm::vec3> undeformed_;     // voxels, chunked order
    std::vector<uint32_t> originalIndex_;   // the input's vertex of each
    std::vector<float> mask_;               // what the mask shows when on (chunked order)
    LiveSettings settings_;
    double segmentTolerance_ = kDefaultSegmentTolerance;
    float heatScale_ = 1.0f;                // voxels of displacement at the heat map's top
    uint32_t gizmoCount_ = 0;               // tool copies drawn in the last frame
    uint64_t playbackStart_ = 0;            // the frame the current playback loop started
    std::vector<std::vector<glm::vec3>> framed_;
    ViewerPushConstants push_{};
    uint32_t dragFrames_ = 1;
    uint64_t frame_ = 0;
    uint32_t slot_ = 0;
    bool swapchainStale_ = false;
    FrameStats stats_;
    ViewerResult result_;
    double solverSum_ = 0.0;
    uint64_t solverCount_ = 0;
};

Viewer::Viewer(const ViewerOptions& options, std::atomic<int>& validationMessages) : options_(options) {
    // Inputs first: a bad file fails before any window opens.
    const cli::MoveInputs inputs = cli::loadMoveInputs(options_.inputs);
    const ChunkedMesh chunked =
        chunkMesh(inputs.voxels, inputs.mesh.faceSizes, inputs.mesh.faceIndices, options_.chunkSize);
    LiveMoveOptions liveOptions;
    liveOptions.solver = solverOptions(options_);
    dragFrames_ = dragFrames(options_);
    // Continuous mode holds the whole playback to --tol (spec §2).
    segmentTolerance_ = options_.tolerance / std::max(dragFrames_ - 1, 1u);
    if (options_.paintMask && !inputs.mask.empty())
        throw Error("--paint-mask: the mesh already has a mask (" + inputs.maskSource + ")");
    mask_ = inputs.mask.empty() ? paintedMask(chunked.positions) : inChunkOrder(inputs.mask, chunked.originalIndex);
    settings_ = {viewerSymmetry(inputs, options_.inputs), options_.paintMask || !inputs.mask.empty(), inputs.mode};
    settings_.heatMap = options_.heatMap;
    // The viewer's origin can differ from the stroke's (viewerSymmetry): say the one it uses.
    result_.description = inputs.description;
    if (settings_.symmetry.axes) {
        const std::string cli = cli::describeSymmetry(inputs.stroke.symmetry);
        if (const size_t at = result_.description.find(cli); at != std::string::npos)
            result_.description.replace(at, cli.size(), cli::describeSymmetry(settings_.symmetry));
    }
    settings_.evaluationsMap = options_.evaluationsMap;
    undeformed_ = chunked.positions;
    originalIndex_ = chunked.originalIndex;

    const bool validation = options_.validation || validationRequestedByEnvironment();
    std::vector<const char*> extensions;
    if (options_.headlessFrames == 0) {
        window_ = std::make_unique<Window>(options_.width, options_.height, "sculptflow-viewer");
        extensions = window_->requiredInstanceExtensions();
    }
    device_ = std::make_unique<ViewerDevice>(validation, extensions, validationMessages,
                                             options_.synchronizationValidation);
    if (window_) surface_ = std::make_unique<WindowSurface>(device_->instance(), *window_);
    device_->openDevice(surface_ ? surface_->handle() : VK_NULL_HANDLE);
    AdoptedDevice adopted{device_->instance(), device_->physicalDevice(), device_->device(),
                          device_->queueFamily(), device_->queue()};
    adopted.loader.getInstanceProcAddr = vkGetInstanceProcAddr; // volk's, loaded by ViewerDevice
    adopted.hooks.pipelineCacheFile = options_.inputs.pipelineCache;   // --pipeline-cache
    context_ = std::make_unique<Context>(adopted);
    ring_ = std::make_unique<FrameRing>(device_->device(), device_->queueFamily());
    depthFormat_ = chooseDepthFormat(*context_);
    pipeline_ = std::make_unique<MeshPipeline>(*context_, depthFormat_);
    VkExtent2D extent{options_.width, options_.height};
    if (window_) {
        window_->waitWhileMinimised();
        swapchain_ = std::make_unique<Swapchain>(*device_, surface_->handle(), window_->framebufferSize());
        extent = swapchain_->extent();
    }
    target_ = std::make_unique<RenderTarget>(*context_, extent, depthFormat_, pipeline_->renderPass());
    mesh_ = std::make_unique<LiveMesh>(*context_, ring_->pool(), chunked, inputs.stroke, liveOptions);
    gizmos_ = std::make_unique<ToolGizmos>(*context_, gizmoShape(inputs.stroke));
    if (!options_.shaderDir.empty()) { // a broken shader at start: the built-in one runs until it is fixed
        reloader_ = std::make_unique<ShaderReloader>(*context_, options_.shaderDir);
        result_.shaderError = reloader_->lastReport().message;
    }
    applySettings();

    result_.deviceName = device_->deviceName();
    result_.vertices = mesh_->vertexCount();
    result_.chunksTotal = uint32_t(mesh_->chunkCount());
    if (!options_.quiet)
        std::printf("sculptflow-viewer: %s, %u vertices in %zu chunks of %.3g voxels, %s on %s%s\n",
                    result_.description.c_str(), result_.vertices, mesh_->chunkCount(), chunked.blockSize,
                    options_.method.c_str(), result_.deviceName.c_str(), validation ? ", validation on" : "");
    if (!options_.quiet) {
        // The viewer's own origin and segments, which the inputs' line above does not know.
        const glm::dvec3& c = settings_.symmetry.origin;
        std::printf("sculptflow-viewer: mirror planes through (%g, %g, %g); continuous mode: %u segments a "
                    "playback at %.3g voxel each; %s\n",
                    c.x, c.y, c.z, std::max(dragFrames_ - 1, 1u), segmentTolerance_,
                    describe(settings_).empty() ? "move-tool mode, no mirror, no mask" : describe(settings_).c_str());
    }
    if (!options_.quiet && windowed())
        std::printf("keys: X, Y, Z mirror across that plane, M mask, C continuous/move mode, R restart, B before/"
                    "after, H heat map (displacement), E evaluations map\n");
}

Viewer::~Viewer() {
    if (device_ && device_->device()) vkDeviceWaitIdle(device_->device());
    gizmos_.reset();
    mesh_.reset();
    target_.reset();
    swapchain_.reset();
    pipeline_.reset();
    ring_.reset();
    context_.reset();
    surface_.reset();
    device_.reset();
    window_.reset();
}

void Viewer::updateCamera() {
    const VkExtent2D extent = target_->extent();
    std::vector<std::span<const glm::vec3>> sets(framed_.begin(), framed_.end());
    const Camera camera = fitCamera(sets, float(extent.width) / float(extent.height));
    const glm::mat3 toWorld = glm::transpose(glm::mat3(camera.view)); // the view's rotation, inverted
    push_.viewProjection = camera.projection * camera.view;
    push_.eye = glm::vec4(camera.eye, kAmbient);
    push_.key = glm::vec4(toWorld * kKeyDirection, kKey);
    push_.fill = glm::vec4(toWorld * kFillDirection, kFill);
    push_.color = glm::vec4(srgbToLinear(kClay), options_.showChunks ? kChunkShade : 0.0f);
    if (settings_.evaluationsMap) push_.color = glm::vec4(1.0f, 0.0f, 0.0f, -kEvaluationsScale);
    else if (settings_.heatMap) push_.color = glm::vec4(0.0f, 0.0f, 0.0f, -heatScale_);
}

void Viewer::applySettings() {
    mesh_->setSymmetry(settings_.symmetry);
    mesh_->setMode(settings_.mode, segmentTolerance_);
    mesh_->setMask(settings_.mask ? std::span<const float>(mask_) : std::span<const float>());
    const Move move = moveToolMotion(mesh_->stroke());
    framed_ = framedPoints(undeformed_, move);
    heatScale_ = heatMapScale(move);
    updateCamera();
}

void Viewer::toggle(int key) {
    const std::optional<Toggle> asked = toggleForKey(key);
    if (!asked) return;
    const ToggleResult result = applyToggle(settings_, *asked, mesh_->stroke().tools.size());
    if (!options_.quiet) std::printf("sculptflow-viewer: %s\n", result.message.c_str());
    if (!result.applied) return;
    if (!result.restarts) { // only what is drawn changes: the next frame's push constants and buffers
        updateCamera();
        return;
    }
    SF_VK_CHECK(vkDeviceWaitIdle(device_->device()));
    applySettings();
    // A drag in progress is cancelled: this frame restores the grab's shape, the
    // next resets and grabs (max: a second key in the same frame keeps that order).
    playbackStart_ = std::max(playbackStart_, frame_ + (mesh_->cancel() ? 1 : 0));
}

void Viewer::recreateSwapchain() {
    window_->waitWhileMinimised();
    if (window_->shouldClose()) return;
    SF_VK_CHECK(vkDeviceWaitIdle(device_->device()));
    swapchain_->recreate(window_->framebufferSize());
    target_.reset();
    target_ = std::make_unique<RenderTarget>(*context_, swapchain_->extent(), depthFormat_, pipeline_->renderPass());
    updateCamera();
    swapchainStale_ = false;
}

bool Viewer::renderFrame() {
    ring_->wait(slot_);
    uint32_t image = 0;
    if (windowed()) {
        if (window_->takeResized() || swapchainStale_) {
            recreateSwapchain();
            return false;
        }
        const VkResult acquired = vkAcquireNextImageKHR(device_->device(), swapchain_->handle(), UINT64_MAX,
                                                        ring_->acquired(slot_), VK_NULL_HANDLE, &image);
        if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
            recreateSwapchain();
            return false;
        }
        if (acquired == VK_SUBOPTIMAL_KHR) swapchainStale_ = true; // acquired all the same: draw, then recreate
        else SF_VK_CHECK(acquired);
    }

    // Before playbackStart_: the frame that restores a cancelled drag, with nothing else to do.
    PlaybackFrame playback;
    if (frame_ >= playbackStart_)
        playback = playbackFrame(frame_ - playbackStart_, dragFrames_, options_.holdFrames, true);
    playback.reset = playback.grab && frame_ > 0;
    VkCommandBuffer commands = ring_->begin(slot_);
    const RecordReport report = mesh_->recordFrame(commands, playback);
    DrawCall draw = mesh_->drawCall(settings_.before);
    draw.push = push_;
    draw.background = srgbToLinear(kBackground);
    const std::vector<ToolCopy> copies = toolCopies(mesh_->poses(), mesh_->symmetry());
    draw.overlays = gizmos_->update(slot_, copies, mesh_->stroke().voxelSize, srgbToLinear(kToolColor),
                                    srgbToLinear(kCopyColor));
    gizmoCount_ = uint32_t(std::min(copies.size(), kMaxTools));
    pipeline_->record(commands, target_->framebuffer(), target_->extent(), draw);
    if (windowed()) swapchain_->recordBlit(commands, image, target_->colorImage(), target_->extent());
    SF_VK_CHECK(vkEndCommandBuffer(commands));

    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    const VkSemaphore waitSemaphore = windowed() ? ring_->acquired(slot_) : VK_NULL_HANDLE;
    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT; // the blit writes the image
    const VkSemaphore rendered = windowed() ? swapchain_->renderedSemaphore(image) : VK_NULL_HANDLE;
    if (windowed()) {
        submit.waitSemaphoreCount = 1;
        submit.pWaitSemaphores = &waitSemaphore;
        submit.pWaitDstStageMask = &waitStage;
        submit.signalSemaphoreCount = 1;
        submit.pSignalSemaphores = &rendered;
    }
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    SF_VK_CHECK(vkQueueSubmit(device_->queue(), 1, &submit, ring_->fence(slot_)));
    mesh_->finishFrame(playback, report);

    if (windowed()) {
        VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        present.waitSemaphoreCount = 1;
        present.pWaitSemaphores = &rendered;
        present.swapchainCount = 1;
        const VkSwapchainKHR swapchain = swapchain_->handle();
        present.pSwapchains = &swapchain;
        present.pImageIndices = &image;
        const VkResult presented = vkQueuePresentKHR(device_->queue(), &present);
        if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) swapchainStale_ = true;
        else SF_VK_CHECK(presented);
    }

    // Statistics, the title and the line a second.
    const double gpuMs = mesh_->gpuMilliseconds();
    if (report.recorded && report.chunksSolved > 0 && std::isfinite(gpuMs)) {
        solverSum_ += gpuMs;
        ++solverCount_;
    }
    result_.maxChunksSolved = std::max(result_.maxChunksSolved, report.chunksSolved);
    if (stats_.frame(report, gpuMs)) {
        const std::string summary = stats_.summary();
        const std::string settings = describe(settings_);
        const std::string shaderError = result_.shaderError.substr(0, result_.shaderError.find('\n'));
        if (windowed())
            window_->setTitle("sculptflow-viewer | " + summary + (settings.empty() ? "" : " | " + settings) +
                              (shaderError.empty() ? "" : " | shader error: " + shaderError));
        if (!options_.quiet) std::printf("frame %llu: %s\n", (unsigned long long)frame_, summary.c_str());
        std::fflush(stdout);
    }
    if (std::find(options_.captureFrames.begin(), options_.captureFrames.end(), frame_) !=
        options_.captureFrames.end())
        result_.captures.emplace_back(frame_, readBack(*context_, ring_->pool(), *target_));
    ++frame_;
    slot_ = (slot_ + 1) % kFramesInFlight;
    return true;
}

void Viewer::pollShaders() {
    if (!reloader_) return;
    const ReloadReport report = reloader_->poll(); // a failure is on stderr already
    if (report.status == ReloadReport::Status::Reloaded) {
        result_.shaderError.clear();
        // Each frame first waits for the fence of the frame kFramesInFlight before it:
        // by then every frame recorded before this swap is complete.
        releaseRetiredAt_ = frame_ + kFramesInFlight + 1;
        if (!options_.quiet)
            std::printf("sculptflow-viewer: shaders reloaded in %.0f ms\n", report.compileMilliseconds);
    } else if (report.status == ReloadReport::Status::Failed) {
        result_.shaderError = report.message;
    }
    if (releaseRetiredAt_ && frame_ >= releaseRetiredAt_) {
        releaseRetiredLiveMovePipelines(*context_);
        releaseRetiredAt_ = 0;
    }
}

ViewerResult Viewer::run() {
    const uint64_t limit = windowed() ? options_.frames : options_.headlessFrames;
    while (limit == 0 || frame_ < limit) {
        if (windowed()) {
            window_->pollEvents();
            if (window_->shouldClose()) break;
            for (const int key : window_->takeKeys()) toggle(key);
        }
        for (const auto& [frame, key] : options_.keyPresses)
            if (frame == frame_) toggle(key);
        if (options_.beforeFrame) options_.beforeFrame(frame_);
        pollShaders();
        renderFrame();
    }
    SF_VK_CHECK(vkDeviceWaitIdle(device_->device()));
    if (!options_.screenshot.empty() || !options_.captureFrames.empty())
        result_.lastFrame = readBack(*context_, ring_->pool(), *target_);
    if (!options_.screenshot.empty()) writePng(result_.lastFrame, options_.screenshot);
    result_.frames = frame_;
    result_.meanSolverMilliseconds =
        solverCount_ ? solverSum_ / double(solverCount_) : std::numeric_limits<double>::quiet_NaN();
    result_.lastError = mesh_->lastError();
    result_.shaderReloads = reloader_ ? reloader_->generation() : 0;
    result_.symmetry = mesh_->symmetry();
    result_.mode = settings_.mode;
    result_.before = settings_.before;
    result_.heatMap = settings_.heatMap;
    result_.evaluationsMap = settings_.evaluationsMap;
    result_.toolGizmos = gizmoCount_;
    // Back in the input's vertex order.
    if (settings_.mask) {
        result_.mask.resize(mask_.size());
        for (size_t i = 0; i < mask_.size(); ++i) result_.mask[originalIndex_[i]] = mask_[i];
    }
    if (options_.readBackPositions) {
        const std::vector<glm::vec3> positions = mesh_->readPositions(*context_, ring_->pool());
        result_.positions.resize(positions.size());
        for (size_t i = 0; i < positions.size(); ++i) result_.positions[originalIndex_[i]] = positions[i];
    }
    return result_;
}

} // namespace

ViewerResult runViewer(const ViewerOptions& options) {
    // Outlives the viewer: objects leaked at teardown are reported while its device is destroyed.
    std::atomic<int> messages{0};
    ViewerResult result;
    {
        Viewer viewer(options, messages);
        result = viewer.run();
    }
    result.validationMessages = messages.load();
    return result;
}

} // namespace sculptflow::viewer
