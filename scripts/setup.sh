#!/usr/bin/env bash
# Installs everything Collage needs to build and test, with Debian's apt-get, and ONNX Runtime
# (npm's onnxruntime-node, the benchmarks' speed anchor) into third_party/ort.
# Idempotent: installs only what is missing and runs `apt-get update` only when there is
# something to install. Uses sudo when not run as root. ONNX Runtime is optional: when npm
# cannot install it, setup warns and succeeds, and the benchmarks report ORT as unavailable.
#
#   scripts/setup.sh            install what is missing
#   scripts/setup.sh --check    only report what is missing (exit 1 if a required package is)
set -euo pipefail

SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ORT_VERSION=1.30.0
ORT_DIR="$SOURCE_DIR/third_party/ort"

# One package per line; extend here.
PACKAGES=(
  build-essential
  cmake
  ninja-build
  g++
  libgtest-dev
  libgmock-dev
  pkg-config
  # .npz archives (src/io/zip_archive).
  libzip-dev
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
  # The executables' allocator (cmake/CollageAllocator.cmake): gperftools' tcmalloc.
  libgoogle-perftools-dev
  # The HTML placement report (collage partition --report): graphviz draws the graph at run
  # time; chromium opens the report in its extended test.
  graphviz
  chromium
  # The JSON of `collage bench --json` (tools/collage).
  nlohmann-json3-dev
  # The fuzz targets (fuzz/, scripts/fuzz.sh: the Fuzzers test of the extended label): clang and
  # its libFuzzer runtime.
  clang
  libclang-rt-14-dev
  # The Python package collage (python/: pybind11 bindings for /usr/bin/python3) and its tests.
  pybind11-dev
  python3-pybind11
  python3-dev
  python3-pytest
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

as_root=()
if [[ "$(id -u)" -ne 0 ]]; then
  as_root=(sudo)
fi

# Installs the given Debian packages; fails when any is still missing afterwards.
apt_install() {
  if [[ ${#as_root[@]} -gt 0 ]] && ! command -v sudo >/dev/null 2>&1; then
    echo "setup: not root and sudo is not available; install as root: apt-get install $*" >&2
    return 1
  fi
  echo "setup: apt-get update"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  echo "setup: apt-get install $*"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
  local still_missing=()
  for package in "$@"; do
    is_installed "$package" || still_missing+=("$package")
  done
  if [[ ${#still_missing[@]} -gt 0 ]]; then
    echo "setup: still missing after apt-get install: ${still_missing[*]}" >&2
    return 1
  fi
  echo "setup: installed $*"
}

ort_is_installed() {
  local package_json="$ORT_DIR/node_modules/onnxruntime-node/package.json"
  [[ -f "$package_json" ]] && grep -q "\"version\": \"$ORT_VERSION\"" "$package_json"
}

# npm's onnxruntime-node (its package carries the linux-x64 CPU library; --ignore-scripts skips
# the install script, which only downloads GPU providers). Node and npm come from Debian when
# missing. Never fails: without it, the benchmarks leave ORT out.
install_onnxruntime() {
  if ! command -v npm >/dev/null 2>&1; then
    if ! apt_install nodejs npm; then
      echo "setup: warning: no npm, so no ONNX Runtime; the benchmarks report ORT as unavailable" >&2
      return 0
    fi
  fi
  echo "setup: npm install onnxruntime-node@$ORT_VERSION into $ORT_DIR"
  mkdir -p "$ORT_DIR"
  if timeout 600 npm install --prefix "$ORT_DIR" --ignore-scripts --no-audit --no-fund --fetch-retries=1 \
      --fetch-timeout=60000 "onnxruntime-node@$ORT_VERSION" >"$ORT_DIR/npm-install.log" 2>&1 && ort_is_installed; then
    echo "setup: installed onnxruntime-node $ORT_VERSION"
  else
    echo "setup: warning: npm could not install onnxruntime-node ($(grep -m 1 -E 'FetchError|npm error' "$ORT_DIR/npm-install.log" || echo "see $ORT_DIR/npm-install.log"));" \
      "the benchmarks report ORT as unavailable" >&2
  fi
}

missing=()
for package in "${PACKAGES[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#PACKAGES[@]} packages are installed"
else
  echo "setup: missing packages: ${missing[*]}"
  if $check_only; then
    ort_is_installed || echo "setup: optional onnxruntime-node $ORT_VERSION is not installed in $ORT_DIR"
    exit 1
  fi
  apt_install "${missing[@]}"
fi

if ort_is_installed; then
  echo "setup: onnxruntime-node $ORT_VERSION is installed in $ORT_DIR"
elif $check_only; then
  echo "setup: optional onnxruntime-node $ORT_VERSION is not installed in $ORT_DIR"
else
  install_onnxruntime
fi
