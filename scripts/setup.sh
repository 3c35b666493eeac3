#!/usr/bin/env bash
# Installs everything Collage needs to build and test, with Debian's apt-get.
# Idempotent: installs only the packages that are missing and runs `apt-get update` only
# when there is something to install. Uses sudo when not run as root.
#
#   scripts/setup.sh            install what is missing
#   scripts/setup.sh --check    only report what is missing (exit 1 if anything is)
set -euo pipefail

# One package per line; extend here.
PACKAGES=(
  build-essential
  cmake
  ninja-build
  g++
  libgtest-dev
  libgmock-dev
  zlib1g-dev
  python3-numpy
  # ONNX import (src/frontend/onnx) and its tests.
  libonnx-dev
  libprotobuf-dev
  protobuf-compiler
  python3-onnx
  # ONNX's backend node tests (tests/onnx_node_suite: the OnnxNodeSuite test).
  libonnx-testdata
  # The xnnpack backend (src/backend/xnnpack; optional, left out of the build without them).
  libxnnpack-dev
  libpthreadpool-dev
  # The model zoo exporter (models/export_zoo.py).
  python3-torch
  python3-torchvision
  # Library backends (src/backend/onednn, src/backend/openblas).
  libdnnl-dev
  # Debian's oneDNN is built with its OpenCL GPU runtime: its CMake config (dnnl-config.cmake)
  # runs find_package(OpenCL REQUIRED), which fails without the OpenCL headers and loader.
  ocl-icd-opencl-dev
  libopenblas-dev
  # The measured-cost database (src/runtime/cost_database).
  libsqlite3-dev
  # The HTML placement report (collage partition --report): graphviz draws the graph at run
  # time; chromium opens the report in its extended test.
  graphviz
  chromium
)

check_only=false
case "${1:-}" in
  "") ;;
  --check) check_only=true ;;
  -h | --help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "setup.sh: unknown argument '$1' (expected --check or --help)" >&2
    exit 2
    ;;
esac

is_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" == "installed" ]]
}

missing=()
for package in "${PACKAGES[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

echo "setup: missing packages: ${missing[*]}"
if $check_only; then
  exit 1
fi

as_root=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: not root and sudo is not available; install as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
echo "setup: apt-get update"
"${as_root[@]}" apt-get update -q
echo "setup: apt-get install ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"

still_missing=()
for package in "${missing[@]}"; do
  is_installed "$package" || still_missing+=("$package")
done
if [[ ${#still_missing[@]} -gt 0 ]]; then
  echo "setup: still missing after apt-get install: ${still_missing[*]}" >&2
  exit 1
fi
echo "setup: installed ${missing[*]}"
