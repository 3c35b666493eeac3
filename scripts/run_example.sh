#!/usr/bin/env bash
# The main job on a fresh clone: installs what is missing, builds the collage tool, exports a
# zoo model (random weights, seeded input, torch's outputs), tunes it on every CPU backend with
# measured costs into the default cost database (a second run measures nothing), refines the
# placement with the graph-level search on measured whole-model latency, prints the placement,
# runs the plan checked against the reference interpreter, writes the HTML report, and measures
# single-backend, greedy and Collage (op level and with the graph stage) placements end to end
# (`collage bench`).
#
#   scripts/run_example.sh [MODEL]     MODEL: a zoo model name (default: mobilenet_v2; see
#                                      `/usr/bin/python3 models/export_zoo.py --list`) or a
#                                      text-IR file such as examples/conv_block.cir
#
# COLLAGE_BUILD_DIR overrides the build directory (default: build); the model, the plan and the
# report go to $COLLAGE_CACHE_DIR/zoo (default ~/.cache/collage/zoo); COLLAGE_THREADS sets the
# thread count (default 2); COLLAGE_GRAPH_BUDGET the graph-level search's seconds (default 30);
# the cost database is `collage db stats`'s.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

case "${1:-}" in
  -h | --help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

model_name="${1:-mobilenet_v2}"
build_dir="${COLLAGE_BUILD_DIR:-build}"
zoo_dir="${COLLAGE_CACHE_DIR:-$HOME/.cache/collage}/zoo"
backends="onednn,openblas,xnnpack,native"  # priority order for the greedy run; native is the fallback
threads="${COLLAGE_THREADS:-2}"
graph_budget="${COLLAGE_GRAPH_BUDGET:-30}"

echo "==> setup"
scripts/setup.sh
echo "==> configure and build $build_dir/bin/collage"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target collage collage-measure-worker
collage="$build_dir/bin/collage"

inputs=()
if [[ -f "$model_name" ]]; then
  model="$model_name"
  plan="${TMPDIR:-/tmp}/$(basename "$model").plan"
  report="${TMPDIR:-/tmp}/$(basename "$model").report.html"
else
  echo "==> export $model_name to $zoo_dir"
  /usr/bin/python3 models/export_zoo.py --out "$zoo_dir" --models "$model_name"
  model="$zoo_dir/$model_name.onnx"
  plan="$zoo_dir/$model_name.plan"
  report="$zoo_dir/$model_name.report.html"
  inputs=(--inputs "$zoo_dir/$model_name.inputs.npz")
fi

echo "==> $collage backends"
"$collage" backends
# Only the backends this build has (optional libraries may be missing).
available=$("$collage" backends | awk 'NR > 1 {print $1}' | paste -sd, -)
backends=$(tr ',' '\n' <<<"$backends" | grep -Fxf <(tr ',' '\n' <<<"$available") | paste -sd, -)

search=(--search graph --graph-budget "$graph_budget")
echo "==> $collage partition $model --backends $backends --cost measured ${search[*]} --threads $threads -o $plan --report $report"
"$collage" partition "$model" --backends "$backends" --cost measured "${search[@]}" --threads "$threads" -o "$plan" \
  --report "$report"
echo "==> $collage run $model --plan $plan --check --profile"
"$collage" run "$model" --plan "$plan" "${inputs[@]}" --threads "$threads" --check --profile
echo "==> $collage bench $model --backends $backends ${search[*]} --threads $threads"
"$collage" bench "$model" --backends "$backends" "${search[@]}" --threads "$threads" --repeat 20
echo "==> the placement report is $report"
