#!/usr/bin/env bash
# Extended test (ctest label `extended`): `collage partition --report` writes a report that
# headless Chromium (Debian's chromium) loads into a DOM with one partitions-table row per
# partition the command printed and the inline SVG graph with one node per parameter and op.
# Usage: report_in_chromium_test.sh PATH/TO/collage
set -euo pipefail

collage="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "report_in_chromium_test: $*" >&2
  exit 1
}

command -v chromium >/dev/null || fail "chromium is not installed (scripts/setup.sh installs it)"

# Two parameters and three op calls.
cat >"$work/m.cir" <<'MODEL'
def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(3), f32]) {
  %0 = add(%x, %y)
  %1 = multiply(%x, %x)
  (%0, nn.relu(%1))
}
MODEL

"$collage" partition "$work/m.cir" --backends reference --threads 1 --report "$work/report.html" >"$work/stdout.txt"
partitions="$(grep -c '^  reference_[0-9]' "$work/stdout.txt" || true)"
[[ "$partitions" -gt 0 ]] || fail "collage partition printed no partition: $(cat "$work/stdout.txt")"

timeout 120 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$work/report.html" \
  >"$work/dom.html" 2>"$work/chromium.log" || fail "chromium failed: $(tail -n 3 "$work/chromium.log")"

rows="$(grep -o '<tr class="partition">' "$work/dom.html" | wc -l)"
[[ "$rows" -eq "$partitions" ]] || fail "the DOM has $rows partition rows, the command printed $partitions partitions"
grep -q '<table class="partitions">' "$work/dom.html" || fail "the DOM has no partitions table"
grep -q '<svg' "$work/dom.html" || fail "the DOM has no svg element"
nodes="$(grep -o 'class="node"' "$work/dom.html" | wc -l)"
[[ "$nodes" -eq 5 ]] || fail "the svg has $nodes nodes, expected 5 (2 parameters, 3 op calls)"
echo "report_in_chromium_test: $rows partition rows and an svg of $nodes nodes in the DOM"
