// The one exception type sculptflow throws for bad input and failed setup.
#pragma once

#include "export.hpp"

#include <stdexcept>
#include <string>

namespace sculptflow {

// Thrown for malformed files, invalid parameters and failed setup. The message
// names the file or parameter and says what is wrong.
class SCULPTFLOW_API Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

} // namespace sculptflow
