// SCULPTFLOW_API marks what the library exports. It is built with hidden
// visibility, so a shared build exports only these names (and no vk* symbol).
// On Windows a DLL exports them (SCULPTFLOW_DLL_BUILD, set by the build) and its
// users import them (SCULPTFLOW_DLL, set by the sculptflow::sculptflow target);
// the static library needs neither.
#pragma once

#if defined(_WIN32)
#if defined(SCULPTFLOW_DLL_BUILD)
#define SCULPTFLOW_API __declspec(dllexport)
#elif defined(SCULPTFLOW_DLL)
#define SCULPTFLOW_API __declspec(dllimport)
#else
#define SCULPTFLOW_API
#endif
#else
#define SCULPTFLOW_API __attribute__((visibility("default")))
#endif
