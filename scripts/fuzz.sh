#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) with clang, AddressSanitizer and UBSan in a build folder of
# their own and runs each for a bounded time, seeded with fuzz/corpus (see fuzz/CMakeLists.txt).
#
#   scripts/fuzz.sh [--build-dir DIR] [--seconds N] [--only NAME]
#
#   --build-dir DIR   the fuzz build folder (default: build-fuzz); its corpora grow between runs
#   --seconds N       how long each target runs (default: 30)
#   --only NAME       run one target: onnx_import, text_ir_parser, pattern_parser, npz_reader, plan_loader
#
# Exits 77 when clang++ or libFuzzer is missing (scripts/setup.sh installs them), non-zero when a
# target finds a crash; the crashing inputs are kept in DIR/fuzz/NAME/artifacts.
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$source_dir/build-fuzz"
seconds=30
only=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h | --help)
      sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "fuzz.sh: unknown argument '$1' (expected --build-dir, --seconds, --only or --help)" >&2
      exit 2
      ;;
  esac
done
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: --seconds expects a positive whole number of seconds, got '$seconds'" >&2
  exit 2
fi

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz.sh: clang++ is not installed (scripts/setup.sh installs it); skipped" >&2
  exit 77
fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz.sh: clang++ cannot link libFuzzer (-fsanitize=fuzzer; scripts/setup.sh installs it); skipped" >&2
  exit 77
fi

launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
mkdir -p "$build_dir"
CC=clang CXX=clang++ cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCOLLAGE_BUILD_FUZZERS=ON -DCOLLAGE_SANITIZE=ON -DCOLLAGE_BUILD_BENCH=OFF -DCOLLAGE_BUILD_PYTHON=OFF \
  -DCOLLAGE_FUZZ_SECONDS="$seconds" "${launcher[@]}" >"$build_dir/configure.log" 2>&1 ||
  { cat "$build_dir/configure.log" >&2; exit 1; }

targets=(onnx_import text_ir_parser pattern_parser npz_reader plan_loader)
if [[ -n "$only" ]]; then
  if [[ ! " ${targets[*]} " =~ " $only " ]]; then
    echo "fuzz.sh: --only expects one of ${targets[*]}, got '$only'" >&2
    exit 2
  fi
  targets=("$only")
fi
cmake --build "$build_dir" --target "${targets[@]/%/_fuzzer}"
tests_regex="^($(IFS='|'; echo "${targets[*]/%/_fuzz}"))\$"
ctest --test-dir "$build_dir" -L extended -R "$tests_regex" --output-on-failure
