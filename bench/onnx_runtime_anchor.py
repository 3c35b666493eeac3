"""ONNX Runtime's latency of a model, the benchmarks' speed anchor: runs bench/ort_bench.js in
batches (a fresh Node process each) that the caller alternates with its own measurements, and
pools their timed runs."""

import json
import math
import os
import shutil
import subprocess
from typing import Dict, List, Optional

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(SOURCE_DIR, "bench", "ort_bench.js")
# ort_bench.js's exit status when onnxruntime-node is not installed.
EXIT_ORT_MISSING = 3


class OrtUnavailable(Exception):
    """ONNX Runtime cannot run at all here (no Node, or onnxruntime-node not installed)."""


class OrtFailed(Exception):
    """ONNX Runtime could not load or run one model."""


def quantile(samples: List[float], q: float) -> float:
    """The q-th quantile, linearly interpolated (as collage's benchmarks compute it)."""
    ordered = sorted(samples)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (position - below) * (ordered[above] - ordered[below])


def run_batch(onnx_path: str, threads: int, runs: int, warmup: int, seed: int = 0,
              profile_path: Optional[str] = None) -> Dict:
    """One batch: ort_bench.js's JSON (runs_ms, median_ms, ort_version, ...). With
    `profile_path`, ONNX Runtime's profiler records the batch's runs into that file (its
    timings then include the profiler's overhead)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise OrtUnavailable("node is not installed (scripts/setup.sh installs it)")
    command = [node, SCRIPT, onnx_path, "--threads", str(threads), "--runs", str(runs), "--warmup", str(warmup),
               "--seed", str(seed)]
    if profile_path:
        command += ["--profile", profile_path]
    completed = subprocess.run(command, capture_output=True, text=True)
    message = completed.stderr.strip().splitlines()[-1] if completed.stderr.strip() else f"exit {completed.returncode}"
    if completed.returncode == EXIT_ORT_MISSING:
        raise OrtUnavailable(message)
    if completed.returncode != 0:
        raise OrtFailed(message)
    try:
        return json.loads(completed.stdout)
    except json.JSONDecodeError as error:
        raise OrtFailed(f"ort_bench.js printed no JSON ({error})") from error


def pooled(batches: List[Dict]) -> Dict:
    """The batches' timed runs as one result: ort_ms (the median of them all), ort_spread_ms
    (p10, p90), ort_batches_ms (each batch's median, in order: how much the machine drifted),
    ort_version."""
    samples = [ms for batch in batches for ms in batch["runs_ms"]]
    return {"ort_ms": quantile(samples, 0.5),
            "ort_spread_ms": {"p10": quantile(samples, 0.1), "p90": quantile(samples, 0.9)},
            "ort_batches_ms": [batch["median_ms"] for batch in batches], "ort_version": batches[0].get("ort_version")}


class OrtAnchor:
    """Measures models with ONNX Runtime, remembering once that it is unavailable."""

    def __init__(self, threads: int, runs_per_batch: int, warmup: int = 2):
        self.threads = threads
        self.runs_per_batch = runs_per_batch
        self.warmup = warmup
        self.unavailable: Optional[str] = None
        self.version: Optional[str] = None

    def batch(self, onnx_path: str) -> Optional[Dict]:
        """One batch of `onnx_path`, or None when ONNX Runtime is unavailable; raises OrtFailed
        when it cannot run this model."""
        if self.unavailable:
            return None
        try:
            result = run_batch(onnx_path, self.threads, self.runs_per_batch, self.warmup)
        except OrtUnavailable as error:
            self.unavailable = str(error)
            return None
        self.version = result.get("ort_version", self.version)
        return result

    def description(self) -> Dict:
        return {"available": self.unavailable is None, "version": self.version, "unavailable_reason": self.unavailable}
