// Fuzzes the recorded-stroke .bin reader: any bytes give a valid stroke or a sculptflow::Error.
#include <sculptflow/error.hpp>
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        sculptflow::fuzz::checkStroke(sculptflow::parseStrokeBin(sculptflow::fuzz::bytes(data, size), "fuzz.bin"));
    } catch (const sculptflow::Error&) {
    }
    return 0;
}
