// The method table (shaders/sculptflow/methods.glsl) looked up by the public Method.
#pragma once

#include <sculptflow/solver_options.hpp>
#include "kernel.hpp"

namespace sculptflow {

// The method's row, which is also its kernel id (kMethod*). Throws sculptflow::Error
// for a value outside the table.
kernel::MethodTraits methodTraits(Method method);

} // namespace sculptflow
