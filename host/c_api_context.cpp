// The C API's context extras (sculptflow.h): the pipeline cache written on
// demand and a live move's GPU time, Context::savePipelineCache and
// LiveMove::gpuMilliseconds.
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

double sfLiveMoveGetGpuMilliseconds(SfLiveMove live) {
    return live ? live->live->gpuMilliseconds() : std::numeric_limits<double>::quiet_NaN();
}

} // extern "C"
