// The tool kind table (shaders/sculptflow/kinds.glsl) looked up by the public ToolKind.
#pragma once

#include <sculptflow/stroke.hpp>

namespace sculptflow::kernel {
#include "shaders/sculptflow/kinds.glsl"
} // namespace sculptflow::kernel

namespace sculptflow {

// The kind's row, which is also its kernel id (kTool*); src/tool_shapes.cpp. Throws sculptflow::Error
// for a value outside the table.
const kernel::KindTraits& kindTraits(ToolKind kind);

} // namespace sculptflow
