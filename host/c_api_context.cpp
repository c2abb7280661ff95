// The C API's context extras (sculptflow.h): the pipeline cache written on
// demand, the context's queries, and a live move's GPU time
// (Context::savePipelineCache, driverName, allocatedMemory, deviceHeapAvailable,
// bufferPlacement; LiveMove::gpuMilliseconds).
#include "c_api_impl.hpp"

#include <limits>

using namespace sculptflow;
using namespace sculptflow::capi;

extern "C" {

SfResult sfSavePipelineCache(SfContext context, SfBool32* saved) {
    return guarded(context ? context->lastError : threadError(), [&] {
        require(context != nullptr, "sfSavePipelineCache: context is NULL");
        const bool written = context->context->savePipelineCache(); // false: a warning says why
        if (saved) *saved = written ? 1u : 0u;
        return SF_SUCCESS;
    });
}

const char* sfGetDriverName(SfContext context) { return context ? context->driverName.c_str() : ""; }

uint64_t sfGetAllocatedMemory(SfContext context) { return context ? context->context->allocatedMemory() : 0; }

uint64_t sfGetDeviceHeapAvailable(SfContext context) {
    return context ? context->context->deviceHeapAvailable() : 0;
}

SfBufferPlacement sfGetBufferPlacement(SfContext context) {
    if (!context) return SF_BUFFER_PLACEMENT_AUTO;
    return context->context->bufferPlacement() == BufferPlacement::Staged ? SF_BUFFER_PLACEMENT_STAGED
                                                                          : SF_BUFFER_PLACEMENT_MAPPED;
}

double sfLiveMoveGetGpuMilliseconds(SfLiveMove live) {
    return live ? live->live->gpuMilliseconds() : std::numeric_limits<double>::quiet_NaN();
}

} // extern "C"
