#!/usr/bin/env bash
# resnet50 latency: Collage's onednn backend (the whole model as one partition) vs PyTorch
# eager, both on the same input and thread count, interleaved round by round so that load
# on the machine hits both alike. Prints each round's medians, then the median over rounds
# and the ratios (target: onednn <= 0.7 x torch).
#
#   bench/compare_resnet50.sh [BIN_DIR] [ROUNDS] [THREADS]     (BIN_DIR: build/bin)
set -euo pipefail
build=${1:-build/bin}
rounds=${2:-5}
threads=${3:-2}
zoo=${COLLAGE_CACHE_DIR:-$HOME/.cache/collage}/zoo
model=$zoo/resnet50.onnx
[[ -f $model ]] || /usr/bin/python3 "$(dirname "$0")/../models/export_zoo.py" --out "$zoo" --models resnet50

onednn=()
torch=()
ratios=()
for round in $(seq "$rounds"); do
  o=$("$build/collage_onednn_bench" "$model" --threads "$threads" --runs 10 | awk '/run_ms_median/ {print $2}')
  t=$(/usr/bin/python3 "$(dirname "$0")/torch_eager_bench.py" resnet50 --threads "$threads" --runs 10 \
        --inputs "$zoo/resnet50.inputs.npz" | awk '/run_ms_median/ {print $2}')
  r=$(awk -v o="$o" -v t="$t" 'BEGIN {printf "%.3f", o / t}')
  echo "round $round: onednn ${o} ms, torch ${t} ms, ratio ${r}"
  onednn+=("$o")
  torch+=("$t")
  ratios+=("$r")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
o=$(median "${onednn[@]}")
t=$(median "${torch[@]}")
echo "median onednn ${o} ms, torch ${t} ms, ratio of medians $(awk -v o="$o" -v t="$t" 'BEGIN {printf "%.3f", o / t}'), median of round ratios $(median "${ratios[@]}")"
