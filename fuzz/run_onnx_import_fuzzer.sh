#!/bin/sh
# Runs the ONNX importer fuzzer for a bounded time.
#   run_onnx_import_fuzzer.sh FUZZER WORK_DIR SECONDS
# Seeds: the importer test models (tests/frontend/onnx/make_test_models.py, good and bad ones)
# and fuzz/corpus/onnx_import (run_fuzzer.sh does the rest).
set -eu
fuzzer=$1
work=$2
seconds=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work/models"
if /usr/bin/python3 -c 'import onnx, numpy' 2>/dev/null; then
  /usr/bin/python3 "$source_dir/tests/frontend/onnx/make_test_models.py" "$work/generated" >/dev/null
  cp "$work"/generated/*.onnx "$work/models/"
fi
exec "$source_dir/fuzz/run_fuzzer.sh" "$fuzzer" "$work" "$seconds" 65536 "$work/models" \
  "$source_dir/fuzz/corpus/onnx_import"
