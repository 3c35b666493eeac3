#!/usr/bin/env bash
# Installs what is missing (scripts/setup.sh), builds Collage and runs its tests.
#
#   scripts/test.sh              build in build/ and run every test except those labelled `extended`
#   scripts/test.sh --extended   also run the slow tests labelled `extended`
#   scripts/test.sh --sanitize   build in build-asan/ with AddressSanitizer and UBSan, and test that
#
# Exits non-zero when any step fails; prints a summary at the end. COLLAGE_BUILD_DIR overrides
# the build directory.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

extended=false
sanitize=false
for argument in "$@"; do
  case "$argument" in
    --extended) extended=true ;;
    --sanitize) sanitize=true ;;
    -h | --help)
      sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "test.sh: unknown argument '$argument' (expected --extended, --sanitize or --help)" >&2
      exit 2
      ;;
  esac
done

build_dir="${COLLAGE_BUILD_DIR:-build}"
cmake_options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if $sanitize; then
  build_dir="${COLLAGE_BUILD_DIR:-build-asan}"
  cmake_options+=(-DCOLLAGE_SANITIZE=ON)
fi
ctest_options=(--test-dir "$build_dir" --output-on-failure -j2)
if ! $extended; then
  ctest_options+=(-LE extended)
fi

summary=()
started=$SECONDS
step() {
  local name="$1"
  shift
  local step_started=$SECONDS
  echo "==> $name: $*"
  if "$@"; then
    summary+=("ok      $name ($((SECONDS - step_started)) s)")
  else
    local status=$?
    summary+=("FAILED  $name ($((SECONDS - step_started)) s, exit status $status)")
    print_summary
    exit "$status"
  fi
}
print_summary() {
  echo
  echo "==> summary ($((SECONDS - started)) s, build dir $build_dir$($extended && echo ', extended tests included'))"
  printf '  %s\n' "${summary[@]}"
  if [[ -f "$build_dir/ctest.log" ]]; then
    grep -E 'tests passed|tests failed' "$build_dir/ctest.log" | sed 's/^/  /' || true
  fi
}

run_tests() {
  # ctest's own output goes to the terminal and to a log the summary quotes.
  set -o pipefail
  ctest "${ctest_options[@]}" 2>&1 | tee "$build_dir/ctest.log"
}

step setup scripts/setup.sh
step configure cmake -S . -B "$build_dir" -G Ninja "${cmake_options[@]}"
step build cmake --build "$build_dir"
rm -f "$build_dir/ctest.log"
step test run_tests
print_summary
