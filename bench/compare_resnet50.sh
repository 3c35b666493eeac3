#!/usr/bin/env bash
# resnet50 latency: Collage's onednn backend (the whole model as one partition) vs PyTorch
# eager, both on the same input and thread count, interleaved round by round so that load
# on the machine hits both alike. Prints each round's median and minimum, then over all
# rounds the median of the medians, the ratio of those, the median of the per-round ratios
# and the ratio of the minima (the least disturbed runs). Target: onednn <= 0.7 x torch.
#
#   bench/compare_resnet50.sh [BIN_DIR] [ROUNDS] [THREADS] [RUNS]   (BIN_DIR: build/bin)
set -euo pipefail
bin=${1:-build/bin}
rounds=${2:-5}
threads=${3:-2}
runs=${4:-10}
zoo=${COLLAGE_CACHE_DIR:-$HOME/.cache/collage}/zoo
model=$zoo/resnet50.onnx
[[ -f $model ]] || /usr/bin/python3 "$(dirname "$0")/../models/export_zoo.py" --out "$zoo" --models resnet50

field() { awk -v key="$1" '$1 == key {print $2}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
minimum() { printf '%s\n' "$@" | sort -g | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

onednn=() torch=() onednn_min=() torch_min=() ratios=()
for round in $(seq "$rounds"); do
  o=$("$bin/onednn_model_bench" "$model" --threads "$threads" --runs "$runs")
  t=$(/usr/bin/python3 "$(dirname "$0")/torch_eager_bench.py" resnet50 --threads "$threads" --runs "$runs" \
        --inputs "$zoo/resnet50.inputs.npz")
  onednn+=("$(field run_ms_median <<<"$o")") torch+=("$(field run_ms_median <<<"$t")")
  onednn_min+=("$(field run_ms_min <<<"$o")") torch_min+=("$(field run_ms_min <<<"$t")")
  ratios+=("$(ratio "${onednn[-1]}" "${torch[-1]}")")
  echo "round $round: onednn median ${onednn[-1]} min ${onednn_min[-1]} ms," \
       "torch median ${torch[-1]} min ${torch_min[-1]} ms, ratio ${ratios[-1]}"
done
o=$(median "${onednn[@]}") t=$(median "${torch[@]}")
echo "median onednn ${o} ms, torch ${t} ms: ratio of medians $(ratio "$o" "$t")," \
     "median of round ratios $(median "${ratios[@]}")"
o=$(minimum "${onednn_min[@]}") t=$(minimum "${torch_min[@]}")
echo "minimum onednn ${o} ms, torch ${t} ms: ratio of minima $(ratio "$o" "$t")"
