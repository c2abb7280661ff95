// One-shot command buffers for setup work (uploads, screenshots): never per frame.
#pragma once

#include <functional>

#include <volk.h>

namespace sculptflow {
class Context;
}

namespace sculptflow::viewer {

// Records `record` into a one-time command buffer from `pool`, submits it to the
// context's queue and waits for it (at most a minute). Frees what it made, also
// when `record` or Vulkan throws.
void submitAndWait(Context& context, VkCommandPool pool, const std::function<void(VkCommandBuffer)>& record);

} // namespace sculptflow::viewer
