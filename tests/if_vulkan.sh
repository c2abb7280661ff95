#!/usr/bin/env bash
# Runs a command only where `sculptflow device` finds a Vulkan device; exits 77
# (ctest: skipped) with one message where it does not.
#   tests/if_vulkan.sh SCULPTFLOW_EXE COMMAND [ARGS...]
set -euo pipefail
probe=$1 && shift
if ! why=$("$probe" device 2>&1); then
  echo "no Vulkan device here ($(echo "$why" | tail -n1)): skipped"
  exit 77
fi
exec "$@"
