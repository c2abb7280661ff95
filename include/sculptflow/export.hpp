// SCULPTFLOW_API marks what the library exports. It is built with hidden
// visibility, so a shared build exports only these names (and no vk* symbol).
#pragma once

#if defined(_WIN32)
#define SCULPTFLOW_API
#else
#define SCULPTFLOW_API __attribute__((visibility("default")))
#endif
