// The C API's undo (sculptflow.h): the chunks a committed move changed and the
// copy of their pre-grab bytes, LiveMove::changedChunks and recordUndoCopy.
// Neither allocates, as LiveMove's own.
#include "c_api_impl.hpp"

#include <algorithm>
#include <span>

using namespace sculptflow;
using namespace sculptflow::capi;

extern "C" {

SfResult sfLiveMoveGetChangedChunks(SfLiveMove live, uint32_t* count, uint32_t* chunks) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveGetChangedChunks: live is NULL");
    if (!count) return fail(live->lastError, SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveGetChangedChunks: count is NULL");
    const std::span<const uint32_t> changed = live->live->changedChunks();
    if (chunks) {
        // Too little room: nothing written (a failed call writes no output), so no partial list.
        if (*count < changed.size())
            return fail(live->lastError, SF_ERROR_INVALID_ARGUMENT,
                        "sfLiveMoveGetChangedChunks: *count is smaller than the number of changed chunks; "
                        "call it with chunks NULL for that number");
        std::copy(changed.begin(), changed.end(), chunks);
    }
    *count = uint32_t(changed.size());
    return SF_SUCCESS;
}

SfResult sfLiveMoveRecordUndoCopy(SfLiveMove live, VkCommandBuffer commands, VkBuffer positionsCopy,
                                  VkBuffer normalsCopy) {
    if (!live) return fail(threadError(), SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveRecordUndoCopy: live is NULL");
    if (!commands)
        return fail(live->lastError, SF_ERROR_INVALID_ARGUMENT, "sfLiveMoveRecordUndoCopy: commands is VK_NULL_HANDLE");
    if (!positionsCopy)
        return fail(live->lastError, SF_ERROR_INVALID_ARGUMENT,
                    "sfLiveMoveRecordUndoCopy: positionsCopy is VK_NULL_HANDLE");
    // With the arguments checked, the one refusal left is the window: a move open or not over.
    if (!live->live->recordUndoCopy(commands, positionsCopy, normalsCopy))
        return fail(live->lastError, SF_ERROR_INVALID_STATE, live->live->lastError().c_str());
    return SF_SUCCESS;
}

} // extern "C"
