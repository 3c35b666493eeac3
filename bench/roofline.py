#!/usr/bin/python3
"""How close each zoo model runs to this machine's GEMM peak, and so how much any placement could
still gain over the best single backend.

    /usr/bin/python3 bench/roofline.py ZOO_RESULTS.json --peak-gflops P [--zoo DIR] [--json OUT.json]
    /usr/bin/python3 bench/roofline.py ZOO_RESULTS.json --measure-peak [--collage build/bin/collage]
        [--backends onednn,openblas,xnnpack,native] [--zoo DIR] [--json OUT.json]

ZOO_RESULTS.json is bench/zoo_bench.py's output. For each of its models this counts the
multiply-adds of the Conv, ConvTranspose, MatMul and Gemm nodes (shapes from ONNX shape inference,
2 FLOPs per multiply-add) and prints:
  gflop        that GEMM-like work;
  best single  the best single backend's latency and the GFLOP/s it reaches;
  collage      Collage's latency (the graph stage's when measured) and its GFLOP/s;
  bound ms     the work at the peak: no placement runs the model faster unless a backend beats the
               peak;
  ceiling      best single / bound: the most a placement could gain over the best single backend,
               if every GEMM-like op ran at the peak and everything else took no time;
and, for models with ONNX Runtime's latency ("ort_ms", from zoo_bench.py's ORT anchor):
  ort ms       that latency and the GFLOP/s it reaches;
  vs ort       ORT / bound: the most ORT / Collage any placement could reach in that same ideal,
               so a geomean target of ORT / Collage above their geomean is out of reach at this
               peak unless an algorithm does less work than the GEMM count (Winograd's does).
The peak is --peak-gflops, or with --measure-peak the fastest single backend on a 1024x1024x1024
MatMul under `collage run --repeat 20 --profile` at the results' thread count: the same operands
every run, in cache, as no model's GEMM runs faster. (`collage bench` alternates its variants,
so their working sets evict each other's: it found 156 GFLOP/s where `collage run` found 222.)
Depthwise and small convolutions cannot reach a GEMM peak, so for models made of them the ceiling
is loose; it is an upper bound.
"""

import argparse
import json
import math
import os
import sys
import tempfile
from typing import Dict, List

import numpy
import onnx
from onnx import TensorProto, helper, numpy_helper

from machine import cpu_model
from zoo_bench import collage_run_median_ms, default_zoo_dir, geometric_mean

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEAK_SIZE = 1024


def fail(message: str) -> None:
    print(f"roofline: error: {message}", file=sys.stderr)
    sys.exit(1)


def static_shapes(graph: onnx.GraphProto) -> Dict[str, List[int]]:
    shapes = {}
    for info in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = info.type.tensor_type.shape.dim
        if all(dim.HasField("dim_value") for dim in dims):
            shapes[info.name] = [dim.dim_value for dim in dims]
    for initializer in graph.initializer:
        shapes[initializer.name] = list(initializer.dims)
    return shapes


def gemm_multiply_adds(path: str) -> int:
    """Multiply-adds of the model's Conv, ConvTranspose, MatMul and Gemm nodes."""
    graph = onnx.shape_inference.infer_shapes(onnx.load(path)).graph
    shapes = static_shapes(graph)

    def shape(node: onnx.NodeProto, index: int, name: str) -> List[int]:
        if name not in shapes:
            label = node.name or f"#{index}"
            fail(f"{path}: node '{label}' ({node.op_type}): the shape of '{name}' is not static")
        return shapes[name]

    total = 0
    for index, node in enumerate(graph.node):
        if node.op_type not in ("Conv", "ConvTranspose", "MatMul", "Gemm"):
            continue
        output = math.prod(shape(node, index, node.output[0]))
        if node.op_type == "MatMul":
            total += output * shape(node, index, node.input[0])[-1]
        elif node.op_type == "Gemm":
            transposed = any(attribute.name == "transA" and attribute.i for attribute in node.attribute)
            total += output * shape(node, index, node.input[0])[0 if transposed else 1]
        elif node.op_type == "Conv":
            total += output * math.prod(shape(node, index, node.input[1])[1:])
        else:
            total += math.prod(shape(node, index, node.input[0])) * math.prod(shape(node, index, node.input[1])[1:])
    return total


def measure_peak_gflops(collage: str, backends: str, threads: int) -> float:
    """GFLOP/s of the fastest single backend on a square MatMul, timed by `collage run`."""
    with tempfile.TemporaryDirectory() as folder:
        weights = numpy_helper.from_array(numpy.full((PEAK_SIZE, PEAK_SIZE), 0.5, numpy.float32), "w")
        graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "square_matmul",
                                  [helper.make_tensor_value_info("x", TensorProto.FLOAT, [PEAK_SIZE, PEAK_SIZE])],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [PEAK_SIZE, PEAK_SIZE])],
                                  [weights])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model_path = os.path.join(folder, "square_matmul.onnx")
        onnx.save(model, model_path)
        try:
            fastest = min(collage_run_median_ms(collage, model_path, ["--backends", backend], threads, 20)
                          for backend in backends.split(","))
        except RuntimeError as error:
            fail(str(error))
        return 2 * PEAK_SIZE ** 3 / (fastest * 1e6)


def roofline_rows(results: List[Dict], zoo: str, peak_gflops: float) -> List[Dict]:
    rows = []
    for result in results:
        path = os.path.join(zoo, result["model"] + ".onnx")
        if not os.path.exists(path):
            fail(f"{path}: no such model (export the zoo with models/export_zoo.py, or pass --zoo)")
        gflop = 2 * gemm_multiply_adds(path) / 1e9
        latencies = result["latency_ms"]
        best_single = min((ms, variant) for variant, ms in latencies.items() if variant.startswith("single:"))
        collage = latencies.get("collage-graph", latencies["collage"])
        bound_ms = gflop / peak_gflops * 1e3
        row = {"model": result["model"], "gflop": gflop, "best_single": best_single[1],
               "best_single_ms": best_single[0], "best_single_gflops": gflop / best_single[0] * 1e3,
               "collage_ms": collage, "collage_gflops": gflop / collage * 1e3, "bound_ms": bound_ms,
               "ceiling_vs_best_single": best_single[0] / bound_ms}
        ort_ms = result.get("ort_ms")
        if ort_ms:
            row.update({"ort_ms": ort_ms, "ort_gflops": gflop / ort_ms * 1e3, "ceiling_vs_ort": ort_ms / bound_ms})
        rows.append(row)
    return rows


def print_table(rows: List[Dict], peak_gflops: float) -> None:
    print(f"cpu: {cpu_model()}; GEMM peak: {peak_gflops:.0f} GFLOP/s")
    with_ort = any("ort_ms" in row for row in rows)
    header = ["model", "gflop", "best single", "ms", "GFLOP/s", "collage ms", "GFLOP/s", "bound ms", "ceiling"]
    if with_ort:
        header += ["ort ms", "GFLOP/s", "vs ort"]
    lines = [header]
    for row in rows:
        line = [row["model"], f"{row['gflop']:.2f}", row["best_single"], f"{row['best_single_ms']:.2f}",
                f"{row['best_single_gflops']:.0f}", f"{row['collage_ms']:.2f}", f"{row['collage_gflops']:.0f}",
                f"{row['bound_ms']:.2f}", f"{row['ceiling_vs_best_single']:.2f}x"]
        if with_ort:
            line += ([f"{row['ort_ms']:.2f}", f"{row['ort_gflops']:.0f}", f"{row['ceiling_vs_ort']:.2f}x"]
                     if "ort_ms" in row else ["-", "-", "-"])
        lines.append(line)
    widths = [max(len(line[column]) for line in lines) for column in range(len(header))]
    for line in lines:
        print("  ".join([line[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(line[1:], widths[1:])]))
    print(f"geomean ceiling over the best single backend: "
          f"{geometric_mean([row['ceiling_vs_best_single'] for row in rows]):.2f}x")
    ort_ceilings = [row["ceiling_vs_ort"] for row in rows if "ceiling_vs_ort" in row]
    if ort_ceilings:
        print(f"geomean ceiling of ORT / Collage: {geometric_mean(ort_ceilings):.2f}x "
              f"(models with an ORT latency: {len(ort_ceilings)} of {len(rows)})")


def main() -> None:
    parser = argparse.ArgumentParser(prog="roofline", description=__doc__.split("\n")[0])
    parser.add_argument("results", help="bench/zoo_bench.py's JSON output")
    peak = parser.add_mutually_exclusive_group(required=True)
    peak.add_argument("--peak-gflops", type=float, help="the machine's GEMM peak at the results' thread count")
    peak.add_argument("--measure-peak", action="store_true", help="time a square MatMul with `collage run`")
    parser.add_argument("--collage", default=os.path.join(SOURCE_DIR, "build", "bin", "collage"))
    parser.add_argument("--backends", default="onednn,openblas,xnnpack,native")
    parser.add_argument("--zoo", default=default_zoo_dir(), help="the exported zoo's ONNX files")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    if args.peak_gflops is not None and args.peak_gflops <= 0:
        fail(f"--peak-gflops must be positive, got {args.peak_gflops}")
    try:
        with open(args.results) as file:
            combined = json.load(file)
    except (OSError, ValueError) as error:
        fail(f"{args.results}: {error}")
    results = combined["models"] if isinstance(combined, dict) else combined
    if not results:
        fail(f"{args.results}: no models")
    peak_gflops = args.peak_gflops
    if args.measure_peak:
        peak_gflops = measure_peak_gflops(args.collage, args.backends, results[0].get("threads", os.cpu_count()))
    rows = roofline_rows(results, args.zoo, peak_gflops)
    print_table(rows, peak_gflops)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"peak_gflops": peak_gflops, "models": rows}, file, indent=1)


if __name__ == "__main__":
    main()
