#!/usr/bin/python3
"""The zoo benchmark: Collage against every single backend, greedy BYOC, PyTorch eager and
ONNX Runtime.

    /usr/bin/python3 bench/zoo_bench.py [--models a,b] [--backends onednn,openblas,xnnpack,native]
        [--threads 2] [--collage build/bin/collage] [--zoo DIR] [--json OUT.json] [--no-torch]
        [--no-ort] [--ort-runs N] [--ort-rounds K] [--repeat N] [--search op|graph] [--graph-budget S]
        [--db PATH] [--log-dir DIR]
    /usr/bin/python3 bench/zoo_bench.py --from-json RESULTS.json [--json OUT.json]

For each model (default: resnet50, mobilenet_v2, resnext50_32x4d, efficientnet_b0, bert_encoder,
gpt2_decoder, vit_b_16, dcgan_generator; ONNX files from models/export_zoo.py's cache) it runs
`collage bench ZOO/MODEL.onnx --backends ... --threads N --json ... -o PLAN`, then ONNX Runtime's
CPU provider on the same file and thread count head to head with the final plan, then
bench/torch_eager_bench.py on the same thread count. The head to head is --ort-rounds rounds, each
one process of `collage run ZOO/MODEL.onnx --plan PLAN --repeat R --profile` and one batch of
bench/ort_bench.js (R = --ort-runs timed runs each, after warm-up), in alternating order
(Collage first in even rounds, ORT first in odd ones), so that both sides see the same drift of
the machine's load. The
head-to-head ratio ("final_vs_ort") is the median over the rounds of ORT's median / Collage's
median in that round; "ort_ms" pools all of ORT's timed runs. It prints the CPU model, one row per
model (every single backend, greedy, collage, the speed-ups, tuning time, torch eager, ORT,
collage vs torch and vs ORT, the last from `collage bench`'s latency), the head-to-head of each
model's final plan, the geometric means of the speed-ups and each model's spreads (p10-p90), and
writes everything as one JSON file. Where onnxruntime-node is not installed (scripts/setup.sh
installs it), the ORT column says so.

--from-json takes a JSON list of per-model results instead of running anything: each the JSON
of `collage bench` plus "torch_eager_ms" and "ort_ms" (numbers, or null when not measured).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

from machine import cpu_model
from onnx_runtime_anchor import OrtAnchor, OrtFailed, pooled, quantile

DEFAULT_MODELS = ["resnet50", "mobilenet_v2", "resnext50_32x4d", "efficientnet_b0", "bert_encoder", "gpt2_decoder",
                  "vit_b_16", "dcgan_generator"]
# Also greedy's priority order: the libraries first, the native code generator (which runs every
# op) as the fallback, as frameworks place; with native first, greedy would be single:native.
DEFAULT_BACKENDS = "onednn,openblas,xnnpack,native"
SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEEDUPS = ["collage_vs_best_single", "collage_vs_greedy", "collage_vs_torch", "collage_vs_ort"]
# With --search graph: the same ratios for the two-stage plan (op level, then the graph stage).
GRAPH_SPEEDUPS = ["collage_graph_vs_best_single", "collage_graph_vs_greedy", "collage_graph_vs_torch",
                  "collage_graph_vs_ort"]


def default_zoo_dir() -> str:
    base = os.environ.get("COLLAGE_CACHE_DIR")
    if base:
        return os.path.join(base, "zoo")
    return os.path.join(os.path.expanduser("~"), ".cache", "collage", "zoo")


def collage_run_median_ms(collage: str, onnx_path: str, placement: List[str], threads: int, repeat: int) -> float:
    """The median latency `collage run ONNX PLACEMENT --repeat REPEAT --profile` reports (its
    profile's total row), PLACEMENT being ["--plan", PLAN] or ["--backends", B]."""
    command = [collage, "run", onnx_path, *placement, "--threads", str(threads), "--repeat", str(repeat), "--profile"]
    completed = subprocess.run(command, capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {completed.returncode}: {completed.stderr.strip()}")
    for line in completed.stdout.splitlines():
        cells = line.split()
        if cells and cells[0] == "total":
            return float(cells[-2])
    raise RuntimeError(f"{' '.join(command)}: no 'total' row in its profile")


def run_collage_bench(collage: str, onnx_path: str, backends: str, threads: int, extra: List[str],
                      log_path: Optional[str]) -> Dict:
    with tempfile.TemporaryDirectory() as folder:
        json_path = os.path.join(folder, "bench.json")
        command = [collage, "bench", onnx_path, "--backends", backends, "--threads", str(threads), "--json", json_path]
        command += extra
        completed = subprocess.run(command, capture_output=True, text=True)
        if log_path:
            with open(log_path, "w") as log:
                log.write(" ".join(command) + "\n" + completed.stdout + completed.stderr)
        if completed.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: exit {completed.returncode}: {completed.stderr.strip()}")
        with open(json_path) as file:
            return json.load(file)


# PyTorch runs under the thread settings collage's backends set for themselves (a value in the
# environment wins): they are also torch's fastest here. Its OpenMP threads and its OpenBLAS
# pool poll by default: on 2 cores gpt2_decoder took 336 ms under the defaults, 91 ms with these.
# The short OpenMP poll before sleeping took resnet50 from 50 ms (passive alone) to 42 ms.
TORCH_ENVIRONMENT = {"OMP_WAIT_POLICY": "passive", "GOMP_SPINCOUNT": "5000", "OPENBLAS_THREAD_TIMEOUT": "16"}


def run_torch_eager(model: str, inputs_path: str, threads: int) -> Optional[float]:
    command = [sys.executable, os.path.join(SOURCE_DIR, "bench", "torch_eager_bench.py"), model, "--threads",
               str(threads), "--inputs", inputs_path]
    environment = {**TORCH_ENVIRONMENT, **os.environ}
    completed = subprocess.run(command, capture_output=True, text=True, env=environment)
    if completed.returncode != 0:
        print(f"zoo_bench: torch eager failed for {model}: {completed.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    for line in completed.stdout.splitlines():
        if line.startswith("run_ms_median "):
            return float(line.split()[1])
    return None


def ratio(numerator: Optional[float], denominator: Optional[float]) -> Optional[float]:
    return numerator / denominator if numerator and denominator else None


def final_variant(result: Dict) -> str:
    """The variant of the model's final plan: collage-graph when the graph stage ran, else collage."""
    return "collage-graph" if result["latency_ms"].get("collage-graph") else "collage"


def with_derived_speedups(result: Dict) -> Dict:
    """The result with speedup.collage_vs_torch (torch eager ms / collage ms), collage_vs_ort (ORT
    ms / collage ms), final_vs_ort (the head-to-head ratio, or without one ORT ms / the final
    plan's ms) and, when collage-graph was measured, the collage_graph_vs_* ratios; null where a
    latency is missing."""
    latency = result["latency_ms"]
    torch_ms = result.get("torch_eager_ms")
    ort_ms = result.get("ort_ms")
    speedup = dict(result.get("speedup", {}))
    speedup["collage_vs_torch"] = ratio(torch_ms, latency.get("collage"))
    speedup["collage_vs_ort"] = ratio(ort_ms, latency.get("collage"))
    head_to_head = result.get("head_to_head")
    speedup["final_vs_ort"] = (head_to_head["ort_vs_collage"] if head_to_head
                               else ratio(ort_ms, latency.get(final_variant(result))))
    graph_ms = latency.get("collage-graph")
    if graph_ms:
        singles = [ms for name, ms in latency.items() if name.startswith("single:") and ms]
        speedup["collage_graph_vs_best_single"] = ratio(min(singles) if singles else None, graph_ms)
        speedup["collage_graph_vs_greedy"] = ratio(latency.get("greedy"), graph_ms)
        speedup["collage_graph_vs_torch"] = ratio(torch_ms, graph_ms)
        speedup["collage_graph_vs_ort"] = ratio(ort_ms, graph_ms)
    return {**result, "speedup": speedup}


def geometric_mean(values: List[Optional[float]]) -> Optional[float]:
    present = [value for value in values if value]
    if not present:
        return None
    return math.exp(sum(math.log(value) for value in present) / len(present))


def summarize(results: List[Dict]) -> Dict:
    rows = [with_derived_speedups(result) for result in results]
    geomean = {name: geometric_mean([row["speedup"].get(name) for row in rows])
               for name in SPEEDUPS + GRAPH_SPEEDUPS + ["final_vs_ort"]}
    return {"models": rows, "geomean_speedup": geomean}


def single_backends(rows: List[Dict]) -> List[str]:
    names = []
    for row in rows:
        for variant in row["latency_ms"]:
            if variant.startswith("single:") and variant not in names:
                names.append(variant)
    return names


def format_number(value: Optional[float], suffix: str = "") -> str:
    return "-" if value is None else f"{value:.2f}{suffix}"


def format_spread(spread: Optional[Dict]) -> str:
    return f"{spread['p10']:.2f}-{spread['p90']:.2f}" if spread else "-"


# Cores other processes may keep busy while a model is tuned before its row is flagged: collage's
# tuning line warns above the same share (TuningStats::kNotableOtherCores).
NOTABLE_OTHER_CORES = 0.25


def format_crowded_tunings(rows: List[Dict]) -> str:
    """A line per model tuned while other processes kept the cores busy: its costs may be too slow."""
    text = ""
    for row in rows:
        cores = row.get("tuning_other_processes_cores")
        if cores is not None and cores > NOTABLE_OTHER_CORES:
            text += (f"{row['model']}: tuned while other processes kept {cores:.2f} cores busy: its measured "
                     f"costs may be too slow (tune again on a quiet machine)\n")
    return text


def format_whole_regions(rows: List[Dict]) -> str:
    """Per model and function, how the op-level search's placement compared with the backends' whole regions."""
    return "".join(f"{row['model']}: whole regions {comparison}\n" for row in rows
                   for comparison in row.get("whole_regions", []))


def format_spreads(rows: List[Dict]) -> str:
    """Per model, the p10-p90 of collage's runs and ORT's, and each ORT batch's median."""
    text = ""
    for row in rows:
        variants = ["collage"] + (["collage-graph"] if "collage-graph" in row["latency_ms"] else [])
        parts = [f"{name} {format_spread(row.get('spread_ms', {}).get(name))}" for name in variants]
        parts.append(f"ort {format_spread(row.get('ort_spread_ms'))}")
        batches = row.get("ort_batches_ms")
        if batches:
            parts[-1] += " (batch medians " + " / ".join(f"{ms:.2f}" for ms in batches) + ")"
        text += f"{row['model']}: p10-p90 ms: " + ", ".join(parts) + "\n"
    return text


def format_head_to_head(rows: List[Dict], geomean: Optional[float]) -> str:
    """Per model measured head to head, its final plan against ORT round by round, and the geomean."""
    text = ""
    for row in rows:
        match = row.get("head_to_head")
        if not match:
            continue
        rounds = " / ".join(f"{collage:.2f}:{ort:.2f}" for collage, ort in zip(match["collage_ms"], match["ort_ms"]))
        text += (f"{row['model']}: head to head, {match['plan']} plan vs ort, ms per round (collage:ort) {rounds}: "
                 f"ort / collage {match['ort_vs_collage']:.2f}x\n")
    if text:
        text += f"geomean of the final plans vs ort: {format_number(geomean, 'x')}\n"
    return text


def format_table(summary: Dict) -> str:
    rows = summary["models"]
    singles = single_backends(rows)
    header = ["model"] + singles + ["greedy", "collage", "vs best single", "vs greedy", "tuning s", "partitions",
                                    "torch", "vs torch", "ort", "vs ort"]
    lines = [header]
    for row in rows:
        latency = row["latency_ms"]
        speedup = row["speedup"]
        lines.append([row["model"]] + [format_number(latency.get(name)) for name in singles] + [
            format_number(latency.get("greedy")), format_number(latency.get("collage")),
            format_number(speedup.get("collage_vs_best_single"), "x"), format_number(speedup.get("collage_vs_greedy"), "x"),
            format_number(row.get("tuning_s")), str(row.get("partitions", "-")), format_number(row.get("torch_eager_ms")),
            format_number(speedup.get("collage_vs_torch"), "x"), format_number(row.get("ort_ms")),
            format_number(speedup.get("collage_vs_ort"), "x")])
    geomean = summary["geomean_speedup"]
    lines.append(["geomean"] + [""] * (len(singles) + 2) + [
        format_number(geomean["collage_vs_best_single"], "x"), format_number(geomean["collage_vs_greedy"], "x"), "", "",
        "", format_number(geomean["collage_vs_torch"], "x"), "", format_number(geomean["collage_vs_ort"], "x")])
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    text = f"cpu: {summary.get('cpu', 'unknown')}, {summary.get('threads', '?')} threads\n"
    ort = summary.get("ort", {})
    if ort.get("version"):
        text += f"ort: ONNX Runtime {ort['version']} (onnxruntime-node), CPU provider, all graph optimizations\n"
    if ort.get("unavailable_reason"):
        text += f"ort: unavailable: {ort['unavailable_reason']}\n"
    for line in lines:
        cells = [cell.ljust(width) if column == 0 else cell.rjust(width)
                 for column, (cell, width) in enumerate(zip(line, widths))]
        text += "  ".join(cells).rstrip() + "\n"
    graph_rows = [row for row in rows if "collage-graph" in row["latency_ms"]]
    for row in graph_rows:
        graph_ms = row["latency_ms"]["collage-graph"]
        speedup = row["speedup"]
        text += (f"{row['model']}: collage-graph {graph_ms:.2f} ms, "
                 f"{row['latency_ms']['collage'] / graph_ms:.2f}x collage's latency, "
                 f"{format_number(speedup.get('collage_graph_vs_best_single'), 'x')} vs best single, "
                 f"{format_number(speedup.get('collage_graph_vs_greedy'), 'x')} vs greedy, "
                 f"{format_number(speedup.get('collage_graph_vs_torch'), 'x')} vs torch, "
                 f"{format_number(speedup.get('collage_graph_vs_ort'), 'x')} vs ort; "
                 f"additive error of collage {row.get('additive_error', float('nan')) * 100:+.1f}%, "
                 f"of collage-graph {row.get('collage_graph_additive_error', float('nan')) * 100:+.1f}%\n")
    if graph_rows:
        text += ("geomean of collage-graph: " + ", ".join(
            f"{format_number(geomean[name], 'x')} {name.replace('collage_graph_', '').replace('_', ' ')}"
            for name in GRAPH_SPEEDUPS) + "\n")
    text += format_head_to_head(rows, geomean.get("final_vs_ort"))
    text += format_whole_regions(rows)
    text += format_spreads(rows)
    text += format_crowded_tunings(rows)
    return text + "latencies in ms (medians); speed-ups are ratios of latencies (the other's / collage's)\n"


def measure_ort_batch(ort: OrtAnchor, model: str, onnx_path: str, batches: List[Dict]) -> None:
    """Appends one ORT batch of the model to `batches` (none when ORT is unavailable or fails on it)."""
    try:
        batch = ort.batch(onnx_path)
    except OrtFailed as error:
        print(f"zoo_bench: ORT failed for {model}: {error}", file=sys.stderr)
        return
    if batch:
        batches.append(batch)


def head_to_head(args, ort: OrtAnchor, model: str, onnx_path: str, plan_path: str, plan: str) -> Dict:
    """ORT's pooled latency and the head-to-head of the final plan (see the module's comment); only
    "ort_ms": None when ONNX Runtime is unavailable or fails on the model."""
    collage_ms: List[float] = []
    ort_batches: List[Dict] = []
    for round_index in range(args.ort_rounds):
        for side in ("collage", "ort") if round_index % 2 == 0 else ("ort", "collage"):
            if side == "collage":
                collage_ms.append(collage_run_median_ms(args.collage, onnx_path, ["--plan", plan_path], args.threads,
                                                        args.ort_runs))
            else:
                measure_ort_batch(ort, model, onnx_path, ort_batches)
        if len(ort_batches) != round_index + 1:
            return {"ort_ms": None}
    ort_ms = [batch["median_ms"] for batch in ort_batches]
    ratios = [ort / collage for ort, collage in zip(ort_ms, collage_ms)]
    return {**pooled(ort_batches),
            "head_to_head": {"plan": plan, "runs": args.ort_runs, "collage_ms": collage_ms, "ort_ms": ort_ms,
                             "ort_vs_collage": quantile(ratios, 0.5)}}


def measure(args, ort: OrtAnchor) -> List[Dict]:
    """Runs every model; with --json, the per-model results so far are kept next to it
    (OUT.json.partial, a list --from-json reads) after each model."""
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    cpu = cpu_model()
    results = []
    for model in args.models.split(","):
        onnx_path = os.path.join(args.zoo, model + ".onnx")
        if not os.path.exists(onnx_path):
            raise RuntimeError(f"{onnx_path} is missing: export it with models/export_zoo.py --models {model}")
        print(f"zoo_bench: {model} ...", file=sys.stderr, flush=True)
        extra = ["--repeat", str(args.repeat), "--search", args.search, "--graph-budget", str(args.graph_budget)]
        if args.db:
            extra += ["--db", args.db]
        log_path = os.path.join(args.log_dir, model + ".bench.log") if args.log_dir else None
        with tempfile.TemporaryDirectory() as folder:
            plan_path = os.path.join(folder, model + ".plan")
            result = run_collage_bench(args.collage, onnx_path, args.backends, args.threads,
                                       extra + ["--output", plan_path], log_path)
            result["model"] = model
            result["cpu"] = cpu
            result.update({"ort_ms": None} if args.no_ort
                          else head_to_head(args, ort, model, onnx_path, plan_path, final_variant(result)))
        inputs_path = os.path.join(args.zoo, model + ".inputs.npz")
        result["torch_eager_ms"] = None if args.no_torch else run_torch_eager(model, inputs_path, args.threads)
        results.append(result)
        if args.json:
            with open(args.json + ".partial", "w") as file:
                json.dump(results, file, indent=2)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS), help="comma-separated zoo model names")
    parser.add_argument("--backends", default=DEFAULT_BACKENDS, help="also greedy's priority order")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--collage", default=os.path.join(SOURCE_DIR, "build", "bin", "collage"))
    parser.add_argument("--zoo", default=default_zoo_dir(), help="the zoo folder (default: %(default)s)")
    parser.add_argument("--no-torch", action="store_true", help="leave PyTorch eager out")
    parser.add_argument("--no-ort", action="store_true", help="leave ONNX Runtime out")
    parser.add_argument("--ort-runs", type=int, default=10,
                        help="timed runs per round of the head to head, on each side")
    parser.add_argument("--ort-rounds", type=int, default=4,
                        help="rounds of the head to head of the final plan and ORT, in alternating order")
    parser.add_argument("--repeat", type=int, default=10, help="collage bench --repeat")
    parser.add_argument("--search", default="op", choices=["op", "graph"], help="collage bench --search")
    parser.add_argument("--graph-budget", type=int, default=120, help="collage bench --graph-budget (seconds)")
    parser.add_argument("--db", help="collage bench --db (default: the default cost database)")
    parser.add_argument("--log-dir", help="keep each model's collage bench output here")
    parser.add_argument("--from-json", help="per-model results to tabulate instead of measuring")
    parser.add_argument("--json", help="write the combined results here")
    args = parser.parse_args()
    if args.ort_runs < 1:
        parser.error("--ort-runs must be at least 1")
    if args.ort_rounds < 1:
        parser.error("--ort-rounds must be at least 1")
    ort = OrtAnchor(args.threads, args.ort_runs)
    try:
        if args.from_json:
            with open(args.from_json) as file:
                results = json.load(file)
        else:
            results = measure(args, ort)
        summary = summarize(results)
    except (OSError, RuntimeError, ValueError, KeyError, TypeError) as error:
        print(f"zoo_bench: error: {error}", file=sys.stderr)
        return 1
    summary["threads"] = results[0].get("threads", args.threads) if results else args.threads
    summary["cpu"] = results[0].get("cpu", "unknown (not in the results)") if results else cpu_model()
    if args.from_json:
        measured = [row for row in results if row.get("ort_ms")]
        summary["ort"] = {"available": bool(measured), "version": measured[0].get("ort_version") if measured else None,
                          "unavailable_reason": None if measured else "no ORT latency in the results"}
    elif args.no_ort:
        summary["ort"] = {"available": False, "version": None, "unavailable_reason": "left out (--no-ort)"}
    else:
        summary["ort"] = ort.description()
    summary["backends"] = [name[len("single:"):] for name in single_backends(summary["models"])]
    print(format_table(summary), end="")
    if args.json:
        with open(args.json, "w") as file:
            json.dump(summary, file, indent=2)
            file.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
