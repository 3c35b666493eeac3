#!/usr/bin/python3
"""Where ONNX Runtime's CPU provider and oneDNN spend a model's time, operator by operator.

    /usr/bin/python3 bench/ort_op_comparison.py [--models a,b] [--threads 2] [--repeat 20]
        [--collage build/bin/collage] [--zoo DIR] [--top N] [--json OUT.json]

For each model (default: the zoo benchmark's) it runs, alternating:
  - `collage run ZOO/MODEL.onnx --backends onednn,native --threads N --profile --repeat R`
    (single:onednn's placement) plainly, for its latency, and with oneDNN's verbose mode, for
    the time of each primitive (per execution, the median over the repeated runs);
  - bench/ort_bench.js on the same file and thread count plainly, for ONNX Runtime's latency,
    and with ONNX Runtime's profiler, for the kernel time of each node (its median over the runs).
It then pairs the two sides' convolutions and matrix products by shape, e.g.
"conv 96->576 14x14->14x14 k1x1" or "product 1x1280x1000" (rows x depth x columns), and prints
per model the pairs, largest first (instances on each side, oneDNN ms, ORT ms, ORT / oneDNN),
the time neither side could pair (per oneDNN primitive kind, per ORT op type), the sums, and
both latencies.

Reading the pairs:
  - both profilers add time per operator, ORT's more on graphs of many small nodes, so compare
    a profiled sum with its own side's plain latency before comparing the sides;
  - a side may carry work that the other runs as separate operators: oneDNN's convolutions
    include their fused activations (post-ops), and a 1x1 convolution may carry the depthwise
    convolution after it (paired with both of ORT's nodes: "... + dw k3x3 s2"); ORT fuses some
    activations into its Conv nodes and runs others (Sigmoid, Mul, QuickGelu) as nodes of their
    own, which then stay unpaired.
"""

import argparse
import collections
import json
import math
import os
import re
import statistics
import sys
import tempfile
from typing import Dict, List, NoReturn, Optional, Tuple

from machine import cpu_model
from onednn_gemm_share import (VERBOSE_ENVIRONMENT, executions_per_run, per_run_executions, primitive_executions,
                               profile_total, run_lines)
from onnx_runtime_anchor import OrtFailed, OrtUnavailable, run_batch
from zoo_bench import DEFAULT_MODELS, default_zoo_dir

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# oneDNN's descriptor of a 2-D convolution, e.g. g32mb1_ic32oc32_ih112oh112kh3sh1dh0ph1_iw112ow112kw3sw1dw0pw1.
CONVOLUTION_DESCRIPTOR = re.compile(r"^(?:g(\d+))?mb\d+_(?:g\d+)?ic(\d+)oc(\d+)_ih(\d+)oh(\d+)kh(\d+)sh\d+dh\d+ph\d+"
                                    r"_iw(\d+)ow(\d+)kw(\d+)sw\d+dw\d+pw\d+$")
# A depthwise convolution fused into a 1x1 one, in the attributes: "dw:k3s2p1" (oneDNN 2.6) or "dw_k3s2p1".
FUSED_DEPTHWISE = re.compile(r"\bdw[:_]k(\d+)s(\d+)p(\d+)")
# oneDNN's descriptor of an inner product, e.g. mb1ic2048oc1000 or mb1ic512ih7iw7oc10.
INNER_PRODUCT_DESCRIPTOR = re.compile(r"^mb(\d+)ic(\d+)(?:id(\d+))?(?:ih(\d+))?(?:iw(\d+))?oc(\d+)$")
ORT_CONVOLUTIONS = {"Conv", "FusedConv"}
ORT_PRODUCTS = {"MatMul", "Gemm", "FusedMatMul", "FusedGemm"}


def fail(message: str) -> NoReturn:
    print(f"ort_op_comparison: error: {message}", file=sys.stderr)
    sys.exit(1)


def convolution_key(in_channels: int, out_channels: int, in_size: Tuple[int, int], out_size: Tuple[int, int],
                    kernel: Tuple[int, int], groups: int) -> str:
    key = (f"conv {in_channels}->{out_channels} {in_size[0]}x{in_size[1]}->{out_size[0]}x{out_size[1]} "
           f"k{kernel[0]}x{kernel[1]}")
    return key + (f" g{groups}" if groups > 1 else "")


def product_key(rows: int, depth: int, columns: int) -> str:
    return f"product {rows}x{depth}x{columns}"


def onednn_operator(kind: str, signature: str) -> Tuple[str, List[str]]:
    """(the key a primitive is paired by, the keys of ORT's operators it stands for: itself, or a
    1x1 convolution and its fused depthwise one); kind itself when it has no shape key."""
    descriptor = signature.split(",")[-1].strip()
    if kind == "convolution":
        match = CONVOLUTION_DESCRIPTOR.match(descriptor)
        if not match:
            return kind, []
        groups, ic, oc, ih, oh, kh, iw, ow, kw = (int(value) if value else 1 for value in match.groups())
        depthwise = FUSED_DEPTHWISE.search(signature)
        if depthwise and kh == 1 and kw == 1:
            kernel, stride = int(depthwise.group(1)), int(depthwise.group(2))
            pointwise = convolution_key(ic, oc, (ih, iw), (ih, iw), (1, 1), 1)
            fused = convolution_key(oc, oc, (ih, iw), (oh, ow), (kernel, kernel), oc)
            return f"{pointwise} + dw k{kernel}x{kernel} s{stride}", [pointwise, fused]
        key = convolution_key(ic, oc, (ih, iw), (oh, ow), (kh, kw), groups)
        return key, [key]
    if kind == "matmul":
        shapes = [[int(size) for size in part.split("x")] for part in descriptor.split(":")]
        if len(shapes) < 3 or any(not shape for shape in shapes):
            return kind, []
        source, destination = shapes[0], shapes[2]
        key = product_key(math.prod(destination[:-1]), source[-1], destination[-1])
        return key, [key]
    if kind == "inner_product":
        match = INNER_PRODUCT_DESCRIPTOR.match(descriptor)
        if not match:
            return kind, []
        rows, depth, d, h, w, columns = (int(value) if value else 1 for value in match.groups())
        key = product_key(rows, depth * d * h * w, columns)
        return key, [key]
    return kind, []


def ort_operator(op_type: str, inputs: List[List[int]], outputs: List[List[int]]) -> Optional[str]:
    """The key of an ORT node that convolves or multiplies matrices, from its shapes; None for others."""
    if op_type in ORT_CONVOLUTIONS and len(inputs) >= 2 and len(inputs[0]) == 4 and len(inputs[1]) == 4 and outputs:
        data, weight, output = inputs[0], inputs[1], outputs[0]
        if len(output) != 4 or weight[1] == 0:
            return None
        return convolution_key(data[1], weight[0], (data[2], data[3]), (output[2], output[3]), (weight[2], weight[3]),
                               data[1] // weight[1])
    if op_type in ORT_PRODUCTS and inputs and outputs and inputs[0] and outputs[0]:
        output = outputs[0]
        return product_key(math.prod(output[:-1]), inputs[0][-1], output[-1])
    return None


def tensor_shapes(described: List[Dict[str, List[int]]]) -> List[List[int]]:
    """ORT's trace writes each tensor as {element type: shape}."""
    return [list(next(iter(tensor.values()))) if tensor else [] for tensor in described]


def ort_node_times(trace: List[Dict]) -> List[Tuple[str, Optional[str], float]]:
    """(op type, key or None, milliseconds) of each node of an ORT profile trace: the median of
    its kernel times over the profiled runs."""
    durations: Dict[str, List[float]] = collections.defaultdict(list)
    described: Dict[str, Tuple[str, Optional[str]]] = {}
    for event in trace:
        name = event.get("name", "")
        if event.get("cat") != "Node" or not name.endswith("_kernel_time"):
            continue
        arguments = event.get("args", {})
        op_type = arguments.get("op_name", "?")
        durations[name].append(event["dur"] / 1000.0)
        described[name] = (op_type, ort_operator(op_type, tensor_shapes(arguments.get("input_type_shape", [])),
                                                 tensor_shapes(arguments.get("output_type_shape", []))))
    return [(*described[name], statistics.median(times)) for name, times in durations.items()]


def compare_operators(onednn: List[Tuple[str, str, float]], ort: List[Tuple[str, Optional[str], float]]) -> Dict:
    """Pairs a run's oneDNN executions (kind, signature, ms) with ORT's nodes (op type, key, ms):
    each oneDNN operator takes, per key it stands for, one ORT node of that key, fused ones
    first. Returns the pairs (operator, oneDNN and ORT instances and milliseconds) and the time
    left unpaired per oneDNN kind and per ORT op type."""
    available: Dict[str, List[Tuple[str, float]]] = collections.defaultdict(list)
    ort_unpaired: Dict[str, float] = collections.defaultdict(float)
    for op_type, key, milliseconds in ort:
        if key is None:
            ort_unpaired[op_type] += milliseconds
        else:
            available[key].append((op_type, milliseconds))
    operators = [(kind, *onednn_operator(kind, signature), milliseconds) for kind, signature, milliseconds in onednn]
    operators.sort(key=lambda operator: -len(operator[2]))  # fused ones take their nodes first
    pairs: Dict[str, Dict] = {}
    onednn_unpaired: Dict[str, float] = collections.defaultdict(float)
    for kind, key, stands_for, milliseconds in operators:
        if not stands_for or any(not available[part] for part in stands_for):
            onednn_unpaired[kind] += milliseconds
            continue
        pair = pairs.setdefault(key, {"operator": key, "onednn_count": 0, "onednn_ms": 0.0, "ort_count": 0,
                                      "ort_ms": 0.0})
        pair["onednn_count"] += 1
        pair["onednn_ms"] += milliseconds
        for part in stands_for:
            pair["ort_count"] += 1
            pair["ort_ms"] += available[part].pop()[1]
    for nodes in available.values():
        for op_type, milliseconds in nodes:
            ort_unpaired[op_type] += milliseconds
    ordered = sorted(pairs.values(), key=lambda pair: -max(pair["onednn_ms"], pair["ort_ms"]))
    return {"pairs": ordered, "onednn_unpaired_ms": dict(onednn_unpaired), "ort_unpaired_ms": dict(ort_unpaired)}


def comparison_row(model: str, onednn: List[Tuple[str, str, float]], ort: List[Tuple[str, Optional[str], float]],
                   collage_ms: float, ort_ms: float) -> Dict:
    """A model's row: the pairs and unpaired time, the profiled sums and both latencies."""
    row = {"model": model, "collage_ms": collage_ms, "ort_ms": ort_ms,
           "onednn_profiled_ms": sum(milliseconds for _, _, milliseconds in onednn),
           "ort_profiled_ms": sum(milliseconds for _, _, milliseconds in ort)}
    row.update(compare_operators(onednn, ort))
    return row


def measure(collage: str, model_path: str, model: str, threads: int, repeat: int) -> Dict:
    """Plain and verbose `collage run`s, then plain and profiled ORT batches of as many runs."""
    def command(runs: int) -> List[str]:
        return [collage, "run", model_path, "--backends", "onednn,native", "--threads", str(threads), "--profile",
                "--repeat", str(runs)]
    quiet = {name: "0" for name in VERBOSE_ENVIRONMENT}
    collage_ms = profile_total(run_lines(command(repeat), quiet))
    short = len(primitive_executions(run_lines(command(1), VERBOSE_ENVIRONMENT)))
    verbose = primitive_executions(run_lines(command(repeat), VERBOSE_ENVIRONMENT))
    try:
        per_run = executions_per_run(short, len(verbose), 1, repeat)
        onednn = per_run_executions(verbose, per_run, repeat)
    except ValueError as error:
        fail(f"{model_path}: {error}")
    if not onednn:
        fail(f"{model_path}: no oneDNN primitive ran (is the onednn backend built? see `collage backends`)")
    with tempfile.TemporaryDirectory() as folder:
        trace_path = os.path.join(folder, "trace.json")
        try:
            ort_ms = run_batch(model_path, threads, repeat, 2)["median_ms"]
            run_batch(model_path, threads, repeat, 2, profile_path=trace_path)
        except (OrtUnavailable, OrtFailed) as error:
            fail(f"{model_path}: ONNX Runtime: {error}")
        with open(trace_path) as file:
            ort = ort_node_times(json.load(file))
    return comparison_row(model, onednn, ort, collage_ms, ort_ms)


def print_row(row: Dict, top: int) -> None:
    print(f"{row['model']}: collage (onednn,native) {row['collage_ms']:.2f} ms, ORT {row['ort_ms']:.2f} ms; "
          f"profiled sums: oneDNN {row['onednn_profiled_ms']:.2f} ms, ORT {row['ort_profiled_ms']:.2f} ms")
    lines = [["operator", "n", "onednn ms", "ort ms", "ort/onednn"]]
    for pair in row["pairs"][:top]:
        counts = str(pair["onednn_count"]) + ("" if pair["onednn_count"] == pair["ort_count"] else f"/{pair['ort_count']}")
        ratio = f"{pair['ort_ms'] / pair['onednn_ms']:.2f}" if pair["onednn_ms"] > 0 else "-"
        lines.append([pair["operator"], counts, f"{pair['onednn_ms']:.3f}", f"{pair['ort_ms']:.3f}", ratio])
    paired_onednn = sum(pair["onednn_ms"] for pair in row["pairs"])
    paired_ort = sum(pair["ort_ms"] for pair in row["pairs"])
    lines.append([f"all {len(row['pairs'])} paired operators", "", f"{paired_onednn:.3f}", f"{paired_ort:.3f}",
                  f"{paired_ort / paired_onednn:.2f}" if paired_onednn > 0 else "-"])
    widths = [max(len(line[column]) for line in lines) for column in range(len(lines[0]))]
    for line in lines:
        print("  " + "  ".join([line[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(line[1:], widths[1:])]))
    for side, unpaired in (("oneDNN", row["onednn_unpaired_ms"]), ("ORT", row["ort_unpaired_ms"])):
        listed = ", ".join(f"{name} {ms:.3f}" for name, ms in sorted(unpaired.items(), key=lambda item: -item[1]))
        print(f"  unpaired {side} ms: {listed or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="ort_op_comparison", description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=20, help="timed runs of each side's runs")
    parser.add_argument("--collage", default=os.path.join(SOURCE_DIR, "build", "bin", "collage"))
    parser.add_argument("--zoo", default=default_zoo_dir(), help="the exported zoo's ONNX files")
    parser.add_argument("--top", type=int, default=25, help="pairs printed per model (the JSON has all)")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    if args.repeat < 2 or args.threads < 1:
        fail(f"--repeat must be at least 2 and --threads at least 1, got {args.repeat} and {args.threads}")
    if not os.access(args.collage, os.X_OK):
        fail(f"{args.collage}: not an executable (build collage, or pass --collage)")
    cpu = cpu_model()
    print(f"cpu: {cpu}, {args.threads} threads")
    rows = []
    for model in [name for name in args.models.split(",") if name]:
        path = os.path.join(args.zoo, model + ".onnx")
        if not os.path.exists(path):
            fail(f"{path}: no such model (export the zoo with models/export_zoo.py, or pass --zoo)")
        rows.append(measure(args.collage, path, model, args.threads, args.repeat))
        print_row(rows[-1], args.top)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"cpu": cpu, "threads": args.threads, "repeat": args.repeat, "models": rows}, file, indent=1)


if __name__ == "__main__":
    main()
