#!/usr/bin/python3
"""Imports, partitions (analytic costs) and runs graphs far larger than any model: a chain of
100,000 ops and a branching graph of 20,000 ops (blocks of four parallel branches joined by sums).
Asserts only that every step succeeds; prints each step's time, which goes to notes, never into
an assertion (the machines are shared and noisy).

    /usr/bin/python3 tests/scaling/large_graph_test.py [--collage build/bin/collage] [--ops-scale 1.0]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

SHAPE = "Tensor[(1, 16), f32]"


def chain(ops: int) -> str:
    lines = [f"def @main(%x: {SHAPE}) -> {SHAPE} {{"]
    previous = "%x"
    for i in range(ops - 1):
        lines.append(f"  %{i} = nn.relu({previous}) : {SHAPE}")
        previous = f"%{i}"
    lines.append(f"  nn.relu({previous})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def branching(ops: int) -> str:
    """Blocks of four branches of depths 1..4 summed pairwise: 13 ops per block."""
    unary = ["nn.relu", "tanh", "sigmoid", "negative"]
    lines = [f"def @main(%x: {SHAPE}) -> {SHAPE} {{"]
    counter = 0

    def emit(expression: str) -> str:
        nonlocal counter
        name = f"%{counter}"
        counter += 1
        lines.append(f"  {name} = {expression} : {SHAPE}")
        return name

    value = "%x"
    for block in range(max(1, ops // 13)):
        ends = []
        for branch in range(4):
            path = value
            for depth in range(branch + 1):
                path = emit(f"{unary[(block + branch + depth) % 4]}({path})")
            ends.append(path)
        left = emit(f"add({ends[0]}, {ends[1]})")
        right = emit(f"add({ends[2]}, {ends[3]})")
        value = emit(f"add({left}, {right})")
    lines.append(f"  nn.relu({value})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def step(name: str, command: list) -> float:
    start = time.monotonic()
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if completed.returncode != 0:
        print(f"FAILED {name}: exit {completed.returncode}: {completed.stderr.strip()}", file=sys.stderr)
        sys.exit(1)
    print(f"  {name}: {seconds:.2f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_cli = os.environ.get("COLLAGE_CLI", os.path.join("build", "bin", "collage"))
    parser.add_argument("--collage", default=default_cli, help="the collage tool (default: %(default)s)")
    parser.add_argument("--ops-scale", type=float, default=1.0, help="scale both graphs' op counts")
    arguments = parser.parse_args()
    graphs = {
        "chain": chain(int(100_000 * arguments.ops_scale)),
        "branching": branching(int(20_000 * arguments.ops_scale)),
    }
    with tempfile.TemporaryDirectory() as directory:
        for name, text in graphs.items():
            path = os.path.join(directory, name + ".cir")
            with open(path, "w") as file:
                file.write(text)
            print(f"{name} ({text.count(chr(10)) - 2} ops):")
            total = step("import", [arguments.collage, "import", path, "-o", os.path.join(directory, "out.cir")])
            total += step("partition (analytic)", [arguments.collage, "partition", path, "--backends",
                                                   "native,onednn", "--cost", "analytic", "-o",
                                                   os.path.join(directory, name + ".plan")])
            total += step("run", [arguments.collage, "run", path, "--backends", "native,onednn"])
            print(f"  total: {total:.2f} s")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
