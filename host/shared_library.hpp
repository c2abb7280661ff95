// A shared library opened at run time by name and closed with this object:
// dlopen on POSIX, LoadLibraryA on Windows.
#pragma once

#include <string>

namespace sculptflow {

class SharedLibrary {
public:
    // Not open when `name` cannot be opened; error() then says why.
    explicit SharedLibrary(const char* name);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    bool isOpen() const { return handle_ != nullptr; }
    const std::string& error() const { return error_; }
    // The exported symbol, or null.
    void* symbol(const char* name) const;

private:
    void* handle_ = nullptr;
    std::string error_;
};

} // namespace sculptflow
