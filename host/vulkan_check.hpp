// Checking VkResults: every failure becomes a sculptflow::Error naming the call and the result.
#pragma once

#include <string_view>

#include <sculptflow/error.hpp>
#include "vulkan_functions.hpp"

namespace sculptflow {

std::string_view vkResultName(VkResult result);

// The cause a failed VkResult stands for (ErrorCode::Vulkan for the rest).
ErrorCode vkErrorCode(VkResult result);

// Throws sculptflow::Error("<call> failed: VK_...") unless result is VK_SUCCESS,
// with vkErrorCode(result) and the result itself.
void vkCheck(VkResult result, std::string_view call);

} // namespace sculptflow

// Names the called function in the message: SF_VK_CHECK(vkCreateBuffer(...)).
#define SF_VK_CHECK(call) ::sculptflow::vkCheck((call), #call)
