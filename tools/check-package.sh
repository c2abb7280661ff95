#!/usr/bin/env bash
# Tries the package the way a renderer engineer would: installs a built tree into
# a fresh prefix, checks that the installed libraries define no vk* or volk*
# symbol (one would shadow the loader in a renderer that links libvulkan),
# builds the outside examples against that prefix alone (find_package and
# pkg-config) and runs them with validation and synchronization validation on.
#
#   tools/check-package.sh BUILD_DIR [WORK_DIR]
#
# A C-only consumer (a CMake project with only C enabled, and cc with
# pkg-config) links and runs too. CTest runs it on the default (static) build;
# .ci/run also on a shared one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"

libraries=$(find "$prefix" -name 'libsculptflow*.a' -o -name 'libsculptflow*.so*' -type f)
[ -n "$libraries" ] || { echo "check-package: no library installed under $prefix" >&2; exit 1; }
for library in $libraries; do
  case $library in
    *.a) symbols=$(nm -g --defined-only "$library") ;;
    *) symbols=$(nm -D -g --defined-only "$library") ;;
  esac
  leaked=$(awk 'NF == 3 && $3 ~ /^(vk|volk)/ {print $3}' <<<"$symbols")
  if [ -n "$leaked" ]; then
    echo "check-package: FAIL: $library defines" $leaked >&2
    exit 1
  fi
  # The C API is exported (hidden visibility hides whatever SCULPTFLOW_API does not mark).
  if [[ $(basename "$library") == libsculptflow.* ]] && ! grep -qw sfCreateContext <<<"$symbols"; then
    echo "check-package: FAIL: $library does not export the C API (sfCreateContext)" >&2
    exit 1
  fi
  echo "check-package: $(basename "$library"): no vk*/volk* symbol among $(awk 'NF == 3' <<<"$symbols" | wc -l) defined"
done

# No installed header hands out the library's internals: an Impl stays opaque.
if grep -rnE 'Impl *&|Impl *\*|impl\(\)' "$prefix/include/sculptflow"; then
  echo "check-package: FAIL: an installed header gives access to an Impl (above)" >&2
  exit 1
fi

# The examples are built everywhere, and run where the build's CLI finds a device.
device=yes
if [ -x "$build/tools/sculptflow" ] && ! why=$("$build/tools/sculptflow" device 2>&1); then
  device=no && echo "check-package: no Vulkan device here ($(tail -n1 <<<"$why")): the examples are built, not run"
fi
for example in renderer volk_renderer engine_frame_loop c_renderer c_frame_loop; do
  cmake -S "$root/examples/$example" -B "$work/$example" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/$example-configure.log"
  cmake --build "$work/$example" >"$work/$example-build.log"
  [ "$device" = yes ] || continue
  echo "check-package: examples/$example:"
  "$work/$example"/example_*
done

# The C API alone: a file that includes only sculptflow.h is C99 (pedantic) and C++17.
cat >"$work/c_api_only.c" <<'C'
#include <sculptflow/sculptflow.h>
int main(void) { return sfGetVersion() == SCULPTFLOW_VERSION && sfGetLastError(NULL)[0] == '\0' ? 0 : 1; }
C
gcc -std=c99 -pedantic -Wall -Wextra -Werror -c "$work/c_api_only.c" -o "$work/c_api_only.o" -I"$prefix/include"
g++ -x c++ -std=c++17 -pedantic -Wall -Wextra -Werror -c "$work/c_api_only.c" -o "$work/c_api_only_cpp.o" \
  -I"$prefix/include"
echo "check-package: sculptflow.h alone compiles as C99 (-pedantic -Werror) and as C++17"

# pkg-config: a one-line program against the installed .pc alone.
cat >"$work/pkg_config.cpp" <<'CPP'
#include <sculptflow/sculptflow.hpp>
int main() { return sculptflow::defaultStroke().tools.empty() ? 1 : 0; }
CPP
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs --static sculptflow)
# Cflags are C-clean: a C++ consumer asks for C++20 itself.
g++ -std=c++20 "$work/pkg_config.cpp" -o "$work/pkg_config" $flags -Wl,-rpath,"$prefix/lib"
"$work/pkg_config"
echo "check-package: pkg-config build runs"

# A C-only consumer, static or shared package alike: a CMake project whose only
# language is C (find_package, sculptflow::sculptflow), and `cc` with pkg-config.
# Both link (the static library's C++ runtime comes in its link interface and in
# Libs.private) and run a CPU solve, which no device is needed for.
mkdir -p "$work/c_only"
cat >"$work/c_only/main.c" <<'C'
/* A C99 program that moves two points with the CPU solve: one at the tool, one out of reach. */
#include <sculptflow/sculptflow.h>

#include <stdio.h>

int main(void) {
    const SfTool tool = {SF_TOOL_KIND_AFFINE, SF_KELVINLET_PROFILE_BI_SCALE, SF_FALLOFF_SMOOTH, 0.05, 0.2, 1.0, 0.5};
    const SfPose poseA = {{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, 1.0, 0.0};
    const SfPose poseB = {{0.1, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}, 1.0, 1.0};
    const float start[6] = {0.0f, 0.0f, 0.0f, 500.0f, 0.0f, 0.0f};
    float moved[6] = {0.0f};
    SfTools tools;
    SfSolveInfo solve;
    SF_INIT_STRUCT(&tools);
    tools.toolCount = 1;
    tools.tools = &tool;
    tools.voxelSize = 0.01;
    SF_INIT_STRUCT(&solve);
    solve.backend = SF_BACKEND_CPU;
    solve.tools = &tools;
    solve.posesA = &poseA;
    solve.posesB = &poseB;
    solve.vertexCount = 2;
    solve.positions = start;
    if (sfSolve(NULL, &solve, moved) != SF_SUCCESS) {
        fprintf(stderr, "c_only: %s\n", sfGetLastError(NULL));
        return 1;
    }
    /* 0.1 world units are 10 voxels: the point at the tool moves with it, the far one stays. */
    if (moved[0] < 9.9f || moved[0] > 10.1f || moved[3] != 500.0f) {
        fprintf(stderr, "c_only: moved to %g and %g (expected 10 and 500)\n", (double)moved[0], (double)moved[3]);
        return 1;
    }
    printf("c_only: sculptflow %u.%u.%u from C, the tool's point moved %.3f voxels\n", sfGetVersion() >> 22,
           (sfGetVersion() >> 12) & 0x3ffu, sfGetVersion() & 0xfffu, (double)moved[0]);
    return 0;
}
C
cat >"$work/c_only/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(sculptflow_c_only LANGUAGES C)
set(CMAKE_C_STANDARD 99)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
find_package(sculptflow CONFIG REQUIRED)
get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(CXX IN_LIST languages)
  message(FATAL_ERROR "find_package(sculptflow) enabled CXX in a C-only project")
endif()
add_executable(c_only main.c)
target_compile_options(c_only PRIVATE -pedantic -Wall -Wextra -Werror)
target_link_libraries(c_only PRIVATE sculptflow::sculptflow)
CMAKE
cmake -S "$work/c_only" -B "$work/c_only/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/c_only-configure.log"
cmake --build "$work/c_only/build" >"$work/c_only-build.log" ||
  { cat "$work/c_only-build.log" >&2; echo "check-package: FAIL: a C-only CMake project does not link" >&2; exit 1; }
"$work/c_only/build/c_only"
echo "check-package: a C-only CMake project (project(... C), -std=c99 -pedantic -Wall -Wextra -Werror) links and runs"

cflags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags sculptflow)
if [[ " $cflags " == *" -std="* ]]; then
  echo "check-package: FAIL: pkg-config --cflags sculptflow is not C-clean: $cflags" >&2
  exit 1
fi
libs=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --libs --static sculptflow)
cc -std=c99 -pedantic -Wall -Wextra -Werror "$work/c_only/main.c" -o "$work/c_only/pkg_config_c" $cflags $libs \
  -Wl,-rpath,"$prefix/lib" ||
  { echo "check-package: FAIL: cc with pkg-config --cflags, --libs --static ($libs) does not link" >&2; exit 1; }
"$work/c_only/pkg_config_c"
echo "check-package: cc -std=c99 with pkg-config (Cflags: $cflags; Libs: $libs) links and runs"
