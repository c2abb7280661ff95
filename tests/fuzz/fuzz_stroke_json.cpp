// Fuzzes the stroke JSON reader: any bytes give a valid stroke or a sculptflow::Error.
#include <sculptflow/error.hpp>
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        sculptflow::fuzz::checkStroke(sculptflow::parseStrokeJson(sculptflow::fuzz::bytes(data, size), "fuzz.json"));
    } catch (const sculptflow::Error&) {
    }
    return 0;
}
