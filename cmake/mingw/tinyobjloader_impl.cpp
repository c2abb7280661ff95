// tinyobjloader's implementation for MinGW builds (Debian's library is built for Linux only).
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
