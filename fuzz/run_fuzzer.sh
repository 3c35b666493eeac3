#!/bin/sh
# Runs a libFuzzer target for a bounded time.
#   run_fuzzer.sh FUZZER WORK_DIR SECONDS MAX_LEN SEED_DIR...
# The seed folders' files start the corpus; the growing corpus is kept in WORK_DIR/corpus
# between runs and crashing inputs are written to WORK_DIR/artifacts. Exits non-zero when the
# fuzzer finds a crash.
set -eu
fuzzer=$1
work=$2
seconds=$3
max_len=$4
shift 4
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
for seeds in "$@"; do
  cp "$seeds"/* "$work/seeds/" 2>/dev/null || true
done
exec "$fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len="$max_len" \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" "$work/seeds"
