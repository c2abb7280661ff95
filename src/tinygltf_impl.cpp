// tinygltf's implementation (Debian's libtinygltf-dev is header-only), compiled
// once and alone (never in a unity batch: its macros and statics stay here).
#define TINYGLTF_IMPLEMENTATION
#include "gltf_source.hpp"
