// The library's version at run time: a shared library may be newer than the
// headers a program was built with (SCULPTFLOW_VERSION_* in version.h).
#pragma once

#include "export.hpp"
#include "sculptflow/version.h" /* generated: in the build tree it sits apart */

#include <cstdint>

namespace sculptflow {

struct Version {
    uint32_t major = 0;
    uint32_t minor = 0;
    uint32_t patch = 0;
};

SCULPTFLOW_API Version version();

} // namespace sculptflow
