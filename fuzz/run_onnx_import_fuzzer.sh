#!/bin/sh
# Runs the ONNX importer fuzzer for a bounded time.
#   run_onnx_import_fuzzer.sh FUZZER WORK_DIR SECONDS
# Seeds: the importer test models (tests/frontend/onnx/make_test_models.py, good and bad ones)
# and fuzz/corpus/onnx_import; the growing corpus is kept in WORK_DIR/corpus between runs and
# crashing inputs are written to WORK_DIR/artifacts. Exits non-zero when the fuzzer finds a crash.
set -eu
fuzzer=$1
work=$2
seconds=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
if /usr/bin/python3 -c 'import onnx, numpy' 2>/dev/null; then
  /usr/bin/python3 "$source_dir/tests/frontend/onnx/make_test_models.py" "$work/models" >/dev/null
  cp "$work"/models/*.onnx "$work/seeds/"
fi
cp "$source_dir"/fuzz/corpus/onnx_import/* "$work/seeds/" 2>/dev/null || true
exec "$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" "$work/seeds"
