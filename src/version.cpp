// The version this library was built as (the generated version.h).
#include <sculptflow/version.hpp>

namespace sculptflow {

Version version() { return {SCULPTFLOW_VERSION_MAJOR, SCULPTFLOW_VERSION_MINOR, SCULPTFLOW_VERSION_PATCH}; }

} // namespace sculptflow
