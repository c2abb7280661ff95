// sculptflow: the move tool of a VR sculpting app, on the GPU. Every vertex is
// carried through the tool's velocity field (a regularized Kelvinlet or an
// affine deformer with falloff) by a bounded-iteration adaptive Runge–Kutta
// solver; a minimum step and a hard attempt budget bound every vertex's cost.
//
// The whole public API, in topics:
//   stroke.hpp, motion.hpp   poses and tools; a stroke's motion in voxels
//   solver_options.hpp       method, tolerance and step limits
//   solve_report.hpp         per-vertex statistics and their summary
//   cpu_solver.hpp           the CPU reference
//   mesh.hpp, default_case.hpp  OBJ / PLY I/O; the built-in stroke and sphere
//   context.hpp              Vulkan: entry points per Context, created or adopted
//   gpu_solver.hpp           headless: upload, run, read back
//   live_move.hpp            a renderer's frame: record a solve into its command buffer
//   error.hpp                sculptflow::Error, the one exception type
//   log.hpp, version.hpp     the log callback (ContextHooks::log); the version at run time
// sculptflow.h is the C API (C99), the stable boundary for plugins.
// hot_reload.hpp is separate: the shader swaps, and ShaderReloader, which needs sculptflow::hot_reload.
//
// Include your Vulkan header (vulkan.h, or volk.h) before this one.
#pragma once

#include "context.hpp"
#include "cpu_solver.hpp"
#include "default_case.hpp"
#include "error.hpp"
#include "gpu_solver.hpp"
#include "live_move.hpp"
#include "log.hpp"
#include "mesh.hpp"
#include "motion.hpp"
#include "solve_report.hpp"
#include "solver_options.hpp"
#include "stroke.hpp"
#include "version.hpp"
