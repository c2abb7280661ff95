#!/usr/bin/env bash
# Tries the package the way a renderer engineer would: installs a built tree into
# a fresh prefix, checks that the installed libraries define no vk* or volk*
# symbol (one would shadow the loader in a renderer that links libvulkan),
# builds the outside examples against that prefix alone (find_package and
# pkg-config) and runs them with validation and synchronization validation on.
#
#   tools/check-package.sh BUILD_DIR [WORK_DIR]
#
# CTest runs it on the default (static) build; .ci/run also on a shared one.
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
for example in renderer volk_renderer engine_frame_loop c_renderer; do
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
g++ "$work/pkg_config.cpp" -o "$work/pkg_config" $flags -Wl,-rpath,"$prefix/lib"
"$work/pkg_config"
echo "check-package: pkg-config build runs"
