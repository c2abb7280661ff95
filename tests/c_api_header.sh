#!/usr/bin/env bash
# sculptflow.h as a plugin author meets it, without building anything else:
#  - every enum ends with a _MAX_ENUM = 0x7FFFFFFF (32 bits, as Vulkan's);
#  - the documented C snippet (the first ```c block under "The C API and the
#    ABI" in docs/integrating.md, where the README sends C users) compiles as
#    C99 with -pedantic -Wall -Wextra -Werror under gcc and clang, and as C++17
#    under g++, inside a function that declares what it uses;
#  - a C99 file using SF_INIT_STRUCT on every size-versioned struct, and checking
#    the enums' size, compiles the same way.
#
#   tests/c_api_header.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
header=$root/include/sculptflow/sculptflow.h
work=$build/c-api-header
rm -rf "$work" && mkdir -p "$work"
failed=0

# Enums: each typedef enum's body has its _MAX_ENUM.
enums=$(awk '/^typedef enum/ {name = $3; body = ""; inside = 1}
             inside {body = body $0 "\n"}
             inside && /^}/ {inside = 0; if (body !~ /_MAX_ENUM = 0x7FFFFFFF/) print name}' "$header")
count=$(grep -c '^typedef enum' "$header")
if [ -n "$enums" ]; then
  echo "c_api_header: FAIL: enums without a _MAX_ENUM = 0x7FFFFFFF:" $enums >&2
  failed=1
else
  echo "c_api_header: all $count enums have _MAX_ENUM = 0x7FFFFFFF"
fi

# The documented snippet, as written.
awk '/^## The C API and the ABI/ {section = 1}
     section && /^```c$/ {inside = 1; next}
     inside && /^```$/ {exit}
     inside {print}' "$root/docs/integrating.md" >"$work/doc_snippet.inc"
if [ ! -s "$work/doc_snippet.inc" ]; then
  echo "c_api_header: FAIL: no \`\`\`c block under \"## The C API and the ABI\" in docs/integrating.md" >&2
  exit 1
fi
cat >"$work/doc_snippet.c" <<'C'
/* What the documented snippet uses, declared; the snippet itself is included as it is. */
#include <sculptflow/sculptflow.h>
#include <stdio.h>
static void onLog(void* userData, SfLogLevel level, const char* message) {
    (void)userData, (void)level, (void)message;
}
int docSnippet(VkInstance instance, VkPhysicalDevice physical, VkDevice device, uint32_t family, VkQueue queue,
                  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr);
int docSnippet(VkInstance instance, VkPhysicalDevice physical, VkDevice device, uint32_t family, VkQueue queue,
                  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr) {
#include "doc_snippet.inc"
    sfDestroyContext(context);
    return 0;
}
C

# SF_INIT_STRUCT on every size-versioned struct, and the enums' size, in C99.
cat >"$work/init_struct.c" <<'C'
#include <sculptflow/sculptflow.h>
/* C99 has no _Static_assert: a negative array size fails the compile. */
typedef char enumsAre32Bits[sizeof(SfResult) == 4 && sizeof(SfLogLevel) == 4 && sizeof(SfToolKind) == 4 &&
                            sizeof(SfKelvinletProfile) == 4 && sizeof(SfFalloff) == 4 &&
                            sizeof(SfMethod) == 4 && sizeof(SfBackend) == 4 && sizeof(SfMoveMode) == 4
                            ? 1 : -1];
uint32_t initStructs(void);
uint32_t initStructs(void) {
    SfContextCreateInfo context;
    SfTools tools;
    SfSolveInfo solve;
    SfLiveMoveCreateInfo live;
    SfRecordSync sync;
    SfRecordReport report;
    SfPrewarmInfo prewarm;
    SF_INIT_STRUCT(&context);
    SF_INIT_STRUCT(&tools);
    SF_INIT_STRUCT(&solve);
    SF_INIT_STRUCT(&live);
    SF_INIT_STRUCT(&sync);
    SF_INIT_STRUCT(&report);
    SF_INIT_STRUCT(&prewarm);
    return context.structSize + tools.structSize + solve.structSize + live.structSize + sync.structSize +
           report.structSize + prewarm.structSize;
}
C

includes=(-I"$root/include" -I"$build/include")
strict=(-pedantic -Wall -Wextra -Werror)
compile() { # the compiler, then its arguments
  if ! "$@" -c -o /dev/null; then
    echo "c_api_header: FAIL: $*" >&2
    failed=1
  fi
}
for compiler in gcc clang; do
  command -v "$compiler" >/dev/null || { echo "c_api_header: no $compiler here: skipped"; continue; }
  before=$failed
  for file in doc_snippet init_struct; do
    compile "$compiler" -std=c99 "${strict[@]}" "${includes[@]}" "$work/$file.c"
  done
  [ "$failed" != "$before" ] ||
    echo "c_api_header: the documented snippet and SF_INIT_STRUCT compile as C99 under $compiler (-Wextra -Werror)"
done
before=$failed
for file in doc_snippet init_struct; do
  compile g++ -x c++ -std=c++17 "${strict[@]}" "${includes[@]}" -I"$work" "$work/$file.c"
done
[ "$failed" != "$before" ] || echo "c_api_header: and as C++17 under g++"
exit $failed
