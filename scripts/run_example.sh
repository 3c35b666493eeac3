#!/usr/bin/env bash
# Installs what is missing, builds the collage tool and runs a bundled example model once,
# checked against the reference interpreter:
#
#   scripts/run_example.sh [EXAMPLE]     EXAMPLE: a file under examples/ (default: conv_block.cir)
#
# COLLAGE_BUILD_DIR overrides the build directory (default: build).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

case "${1:-}" in
  -h | --help)
    sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

example="examples/${1:-conv_block.cir}"
if [[ ! -f "$example" ]]; then
  echo "run_example.sh: no example '$example'; the bundled examples are:" >&2
  ls examples/*.cir >&2 2>/dev/null || echo "  (none)" >&2
  exit 1
fi

build_dir="${COLLAGE_BUILD_DIR:-build}"
echo "==> setup"
scripts/setup.sh
echo "==> configure and build $build_dir/bin/collage"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target collage
echo "==> $build_dir/bin/collage run $example --check --seed 0"
"$build_dir/bin/collage" run "$example" --check --seed 0
