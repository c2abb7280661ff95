// Frames in flight: a command buffer, a fence and an "image acquired" semaphore per frame.
#pragma once

#include <array>
#include <cstdint>

#include <volk.h>

namespace sculptflow::viewer {

inline constexpr uint32_t kFramesInFlight = 2;

// Owns the command pool (also lent for one-time uploads and readbacks) and each
// slot's command buffer, fence (created signalled) and acquire semaphore.
class FrameRing {
public:
    FrameRing(VkDevice device, uint32_t queueFamily);
    ~FrameRing();
    FrameRing(const FrameRing&) = delete;
    FrameRing& operator=(const FrameRing&) = delete;

    VkCommandPool pool() const { return pool_; }
    VkCommandBuffer commands(uint32_t slot) const { return commands_[slot]; }
    VkFence fence(uint32_t slot) const { return fences_[slot]; }
    VkSemaphore acquired(uint32_t slot) const { return acquired_[slot]; }

    // Waits until the slot's previous submission is done (never longer than a minute).
    void wait(uint32_t slot) const;
    // Resets the slot's fence and begins its command buffer for one submission.
    VkCommandBuffer begin(uint32_t slot) const;

private:
    void release();

    VkDevice device_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::array<VkCommandBuffer, kFramesInFlight> commands_{};
    std::array<VkFence, kFramesInFlight> fences_{};
    std::array<VkSemaphore, kFramesInFlight> acquired_{};
};

} // namespace sculptflow::viewer
