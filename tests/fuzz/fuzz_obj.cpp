// Fuzzes the OBJ reader: any bytes give a valid mesh or a sculptflow::Error, never a crash.
#include <sculptflow/error.hpp>
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        sculptflow::fuzz::checkMesh(sculptflow::parseMesh(sculptflow::fuzz::bytes(data, size), "fuzz.obj"));
    } catch (const sculptflow::Error&) {
    }
    return 0;
}
