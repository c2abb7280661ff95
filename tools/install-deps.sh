#!/usr/bin/env bash
# Installs every Debian 12 package sculptflow needs to build, test and run.
# Idempotent: packages already present are left as they are. Run as root.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libvulkan-dev vulkan-validationlayers libvulkan-volk-dev mesa-vulkan-drivers
  glslang-tools glslang-dev
  libglm-dev
  libgtest-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libtinyobjloader-dev libtinygltf-dev libstb-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib  # the Python module (python/)
  libglfw3-dev xvfb xauth  # the viewer (tools/viewer) and its windowed test under xvfb-run
  clang libclang-rt-14-dev  # libFuzzer for tools/fuzz.sh
  g++-mingw-w64-x86-64 g++-mingw-w64-x86-64-posix googletest wine64  # tools/windows-check.sh
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run as root (or with sudo) to install them" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
