// A command-line value of three numbers, "X,Y,Z" (a point in world units).
#pragma once

#include <string>

#include <glm/glm.hpp>

namespace sculptflow::cli {

// "0.1,-2,3e-1" → (0.1, −2, 0.3). Throws sculptflow::Error naming `option` and the
// text unless it is exactly three finite numbers separated by commas.
glm::dvec3 parseVector3(const std::string& option, const std::string& text);

} // namespace sculptflow::cli
