#!/usr/bin/python3
"""How much of each zoo model's all-oneDNN run goes to oneDNN's GEMM-like primitives, and so the
most any placement could gain over that single backend.

    /usr/bin/python3 bench/onednn_gemm_share.py [--models a,b] [--threads 2] [--repeat 20]
        [--rounds 3] [--collage build/bin/collage] [--zoo DIR] [--json OUT.json]

For each model (default: the zoo benchmark's) it runs `collage run ZOO/MODEL.onnx --backends
onednn,native --threads N --profile --repeat R` (single:onednn's placement: oneDNN where it can,
native elsewhere) in alternating rounds: plain for the latency, with oneDNN's verbose mode on
(which slows the run) for the time of each primitive. It prints per run, as medians over rounds:
  total ms     the median end-to-end latency (without verbose mode);
  gemm ms      oneDNN's convolution, deconvolution, inner product and matmul primitives;
  other ms     its other primitives (reorders, eltwise, binary, softmax, ...), and the largest kind;
  outside ms   total - gemm - other: native's partitions and the runtime between partitions;
  ceiling      total / gemm: the most a placement could gain over single:onednn when no backend
               runs these GEMM-like primitives faster and everything else takes no time.
The JSON rows also hold, from the verbose runs alone, the mean milliseconds per run of all of
oneDNN's primitives (verbose_onednn_ms) and of the whole run (verbose_total_ms): the first is
within the second by construction, and a round where it is not is an error.
Where the zoo benchmark finds oneDNN the fastest backend for every GEMM-like op (the op-level
search measures each on every backend), the ceiling bounds Collage's gain over the best single
backend; unlike bench/roofline.py's, it needs no peak rate and holds for depthwise convolutions.

A verbose run with one repeat tells how many primitives each run executes (the executions while
compiling, weight reorders, are the same in both); a run's time per primitive is the median over
the repeated runs of its execution there.
"""

import argparse
import collections
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, Iterable, List, NoReturn, Tuple

from machine import cpu_model
from zoo_bench import DEFAULT_MODELS, default_zoo_dir

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEMM_KINDS = {"convolution", "deconvolution", "inner_product", "matmul", "gemm"}
# oneDNN 2.x reads DNNL_VERBOSE, 3.x ONEDNN_VERBOSE; 1 prints every primitive execution with its time.
VERBOSE_ENVIRONMENT = {"DNNL_VERBOSE": "1", "ONEDNN_VERBOSE": "1"}


def fail(message: str) -> NoReturn:
    print(f"onednn_gemm_share: error: {message}", file=sys.stderr)
    sys.exit(1)


def primitive_executions(lines: Iterable[str]) -> List[Tuple[str, str, float]]:
    """(kind, signature, milliseconds) of each oneDNN verbose 'exec' line: 2.x writes
    'onednn_verbose,exec,cpu,KIND,...,MS', 3.x 'onednn_verbose,primitive,exec,cpu,KIND,...,MS'."""
    executions = []
    for line in lines:
        if not line.startswith("onednn_verbose,"):
            continue
        fields = line.rstrip("\n").split(",")
        head = fields[1:3]
        if "exec" not in head:
            continue
        engine_at = 1 + head.index("exec") + 1
        if len(fields) < engine_at + 3:
            continue
        try:
            milliseconds = float(fields[-1])
        except ValueError:
            continue
        executions.append((fields[engine_at + 1], ",".join(fields[engine_at:-1]), milliseconds))
    return executions


def executions_per_run(short: int, long: int, short_repeat: int, long_repeat: int) -> int:
    """How many primitives a run executes, from the executions of two `collage run`s that differ
    only in their repeat counts (compiling and the warm-up run execute the same in both)."""
    extra_runs = long_repeat - short_repeat
    if extra_runs <= 0 or long < short or (long - short) % extra_runs:
        raise ValueError(f"{short} oneDNN executions over {short_repeat} runs and {long} over {long_repeat}: "
                         f"not a whole number per run")
    return (long - short) // extra_runs


def per_run_executions(executions: List[Tuple[str, str, float]], per_run: int,
                       runs: int) -> List[Tuple[str, str, float]]:
    """(kind, signature, milliseconds) of each of a run's `per_run` executions, from the last
    `runs` runs: per execution of a run, the median over the runs."""
    if per_run == 0:
        return []
    timed = executions[len(executions) - runs * per_run:]
    if len(timed) < runs * per_run:
        raise ValueError(f"{len(executions)} oneDNN executions, fewer than {runs} runs of {per_run}")
    medians = []
    for position in range(per_run):
        kind, signature, _ = timed[position]
        of_runs = timed[position::per_run]
        if any(other_signature != signature for _, other_signature, _ in of_runs):
            raise ValueError(f"the runs execute different oneDNN primitives at position {position} ({kind})")
        medians.append((kind, signature, statistics.median(milliseconds for _, _, milliseconds in of_runs)))
    return medians


def per_run_milliseconds_by_kind(executions: List[Tuple[str, str, float]], per_run: int,
                                 runs: int) -> Dict[str, float]:
    """Milliseconds per run of each primitive kind, from the last `runs` runs of `per_run`
    executions each: per execution of a run, the median over the runs."""
    by_kind: Dict[str, float] = collections.defaultdict(float)
    for kind, _, milliseconds in per_run_executions(executions, per_run, runs):
        by_kind[kind] += milliseconds
    return dict(by_kind)


def mean_milliseconds_per_run(executions: List[Tuple[str, str, float]], per_run: int, runs: int) -> float:
    """The mean over the last `runs` runs of `per_run` executions each of their summed milliseconds."""
    timed = executions[len(executions) - runs * per_run:]
    if len(timed) < runs * per_run:
        raise ValueError(f"{len(executions)} oneDNN executions, fewer than {runs} runs of {per_run}")
    return sum(milliseconds for _, _, milliseconds in timed) / runs


def profile_total(lines: Iterable[str], statistic: str = "median") -> float:
    """The milliseconds per run of `collage run --profile`'s 'total' row: its median or mean column."""
    for line in lines:
        fields = line.split()
        if len(fields) >= 4 and fields[0] == "total":
            return float(fields[-2] if statistic == "median" else fields[-3])
    raise ValueError("no 'total' row in the profile")


# Printing rounds the profile's milliseconds to 3 decimals.
PROFILE_ROUNDING_MS = 5e-4


def verbose_consistency(lines: List[str], per_run: int, repeat: int) -> Tuple[float, float]:
    """(oneDNN ms, total ms), means per run, of one verbose `collage run`: its primitives run within
    its runs, so by linearity of the mean the first cannot exceed the second; it is an error when
    it does (the verbose lines and the profile would then describe different runs)."""
    onednn = mean_milliseconds_per_run(primitive_executions(lines), per_run, repeat)
    total = profile_total(lines, "mean")
    if onednn > total + PROFILE_ROUNDING_MS:
        raise ValueError(f"oneDNN's primitives took {onednn:.3f} ms per run, more than the runs' {total:.3f} ms")
    return onednn, total


def share_row(model: str, profile_runs: List[List[str]], verbose_runs: List[List[str]], repeat: int,
              per_run: int) -> Dict:
    """The row of a model from rounds of plain profiled runs and verbose ones, each of `repeat`
    runs after a warm-up run, `per_run` oneDNN executions a run: medians over the rounds."""
    rounds = [per_run_milliseconds_by_kind(primitive_executions(lines), per_run, repeat) for lines in verbose_runs]
    if not any(rounds):
        raise ValueError("no oneDNN primitive ran (is the onednn backend built? see `collage backends`)")
    kinds = sorted({kind for by_kind in rounds for kind in by_kind})
    by_kind = {kind: statistics.median(by_kind.get(kind, 0.0) for by_kind in rounds) for kind in kinds}
    total = statistics.median(profile_total(lines) for lines in profile_runs)
    consistency = [verbose_consistency(lines, per_run, repeat) for lines in verbose_runs]
    gemm = sum(ms for kind, ms in by_kind.items() if kind in GEMM_KINDS)
    others = {kind: ms for kind, ms in by_kind.items() if kind not in GEMM_KINDS}
    largest_other = max(others.items(), key=lambda item: item[1], default=("", 0.0))
    return {"model": model, "total_ms": total, "gemm_ms": gemm, "other_ms": sum(others.values()),
            "largest_other": largest_other[0], "largest_other_ms": largest_other[1],
            "outside_ms": total - gemm - sum(others.values()), "ms_by_kind": by_kind,
            "ceiling_vs_onednn": total / gemm if gemm > 0 else None,
            "verbose_onednn_ms": statistics.median(onednn for onednn, _ in consistency),
            "verbose_total_ms": statistics.median(run_total for _, run_total in consistency)}


def run_lines(command: List[str], environment: Dict[str, str]) -> List[str]:
    """The output lines of the command. It writes into a file: verbose lines into a pipe that the
    reader drains late block the run between primitives, and its idle threads fall asleep."""
    with tempfile.TemporaryFile("w+") as output:
        completed = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, text=True,
                                   env={**os.environ, **environment})
        output.seek(0)
        lines = output.read().splitlines()
    if completed.returncode != 0:
        fail(f"{' '.join(command)}: exit {completed.returncode}: {' '.join(lines[-3:])[-300:]}")
    return lines


def measure(collage: str, model_path: str, model: str, threads: int, repeat: int, rounds: int) -> Dict:
    """Alternates plain and verbose runs of the model, `rounds` of each, after a verbose run with
    one repeat that tells the verbose runs' primitives of compiling from those of each run."""
    def command(runs: int) -> List[str]:
        return [collage, "run", model_path, "--backends", "onednn,native", "--threads", str(threads), "--profile",
                "--repeat", str(runs)]
    quiet = {name: "0" for name in VERBOSE_ENVIRONMENT}
    short_executions = len(primitive_executions(run_lines(command(1), VERBOSE_ENVIRONMENT)))
    profile_runs, verbose_runs = [], []
    for _ in range(rounds):
        profile_runs.append(run_lines(command(repeat), quiet))
        verbose_runs.append(run_lines(command(repeat), VERBOSE_ENVIRONMENT))
    try:
        per_run = executions_per_run(short_executions, len(primitive_executions(verbose_runs[0])), 1, repeat)
        return share_row(model, profile_runs, verbose_runs, repeat, per_run)
    except ValueError as error:
        fail(f"{model_path}: {error}")


def format_ms(value: float) -> str:
    return f"{value:.2f}"


def print_table(rows: List[Dict]) -> None:
    header = ["model", "total ms", "gemm ms", "other ms", "largest other", "outside ms", "ceiling"]
    lines = [header] + [[row["model"], format_ms(row["total_ms"]), format_ms(row["gemm_ms"]),
                         format_ms(row["other_ms"]), f"{row['largest_other']} {row['largest_other_ms']:.2f}",
                         format_ms(row["outside_ms"]),
                         f"{row['ceiling_vs_onednn']:.2f}x" if row["ceiling_vs_onednn"] else "-"] for row in rows]
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    for line in lines:
        print("  ".join([line[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(line[1:], widths[1:])]))
    ceilings = [row["ceiling_vs_onednn"] for row in rows if row["ceiling_vs_onednn"]]
    if ceilings:
        print(f"geomean ceiling over single:onednn: {math.exp(sum(map(math.log, ceilings)) / len(ceilings)):.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(prog="onednn_gemm_share", description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--repeat", type=int, default=20, help="runs per `collage run` after its warm-up run")
    parser.add_argument("--rounds", type=int, default=3, help="plain and verbose `collage run`s per model, alternated")
    parser.add_argument("--collage", default=os.path.join(SOURCE_DIR, "build", "bin", "collage"))
    parser.add_argument("--zoo", default=default_zoo_dir(), help="the exported zoo's ONNX files")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    if args.repeat < 2 or args.rounds < 1:
        fail(f"--repeat must be at least 2 and --rounds at least 1, got {args.repeat} and {args.rounds}")
    if not os.access(args.collage, os.X_OK):
        fail(f"{args.collage}: not an executable (build collage, or pass --collage)")
    rows = []
    for model in [name for name in args.models.split(",") if name]:
        path = os.path.join(args.zoo, model + ".onnx")
        if not os.path.exists(path):
            fail(f"{path}: no such model (export the zoo with models/export_zoo.py, or pass --zoo)")
        rows.append(measure(args.collage, path, model, args.threads, args.repeat, args.rounds))
    cpu = cpu_model()
    print(f"cpu: {cpu}, {args.threads} threads")
    print_table(rows)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"cpu": cpu, "threads": args.threads, "repeat": args.repeat, "rounds": args.rounds, "models": rows},
                      file, indent=1)


if __name__ == "__main__":
    main()
