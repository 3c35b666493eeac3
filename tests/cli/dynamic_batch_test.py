#!/usr/bin/python3
"""Zoo models exported with a symbolic batch dimension (models/export_zoo.py --dynamic-batch)
run through `collage run` at every exported batch size, once with the batch bound by --shape
(and the values from --inputs) and once bound by the --inputs arrays alone, greedily placed on
the CPU backends; each output must match torch's within 1e-3 of its largest magnitude. An
unbound batch dimension must be a one-line error naming the input, the axis and the flag.

Needs $COLLAGE_CLI; the exports in $COLLAGE_CACHE_DIR/zoo (or ~/.cache/collage/zoo) are made
first when missing, as the C++ zoo tests do; exits 77 (skipped) only when they cannot be made
(no torch).
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

MODELS = ["mnist_cnn", "squeezenet1_1"]
BATCHES = [1, 4, 16]
BACKENDS = "onednn,xnnpack,openblas,native"
RELATIVE = 1e-3


EXPORTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models", "export_zoo.py")


def exports_present(base):
    return os.path.exists(base + ".onnx") and all(
        os.path.exists(f"{base}.b{batch}.outputs.npz") for batch in BATCHES)


def export_missing():
    """Runs the exporter for the dynamic-batch models; False when torch is not importable."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    subprocess.run([sys.executable, EXPORTER, "--out", zoo_dir(), "--dynamic-batch"], check=True)
    return True


def zoo_dir():
    base = os.environ.get("COLLAGE_CACHE_DIR")
    return os.path.join(base, "zoo") if base else os.path.join(os.path.expanduser("~"), ".cache", "collage", "zoo")


def mismatch(actual, expected):
    """Empty when every output matches within RELATIVE of its largest magnitude; else what differs."""
    for name, want in expected.items():
        got = actual.get(name)
        if got is None:
            return f"no output '{name}' (got {sorted(actual)})"
        if got.shape != want.shape:
            return f"output '{name}' has shape {got.shape}, expected {want.shape}"
        error = float(np.abs(got.astype(np.float64) - want).max()) if want.size else 0.0
        bound = RELATIVE * float(np.abs(want).max()) if want.size else 0.0
        if not error <= bound:
            return f"output '{name}': max error {error:.3g} above {bound:.3g}"
    return ""


def run(cli, arguments):
    return subprocess.run([cli, "run", *arguments], capture_output=True, text=True, timeout=600)


def check_batch(cli, model_path, base, batch, work):
    inputs_path = f"{base}.b{batch}.inputs.npz"
    expected = dict(np.load(f"{base}.b{batch}.outputs.npz"))
    inputs = dict(np.load(inputs_path))
    shapes = [f"--shape={name}={'x'.join(map(str, array.shape))}" for name, array in inputs.items()]
    failures = []
    for label, extra in (("--shape", shapes), ("--inputs", [])):
        outputs_path = os.path.join(work, f"b{batch}{label.replace('-', '_')}.npz")
        result = run(cli, [model_path, "--backends", BACKENDS, *extra, "--inputs", inputs_path, "--outputs", outputs_path])
        if result.returncode != 0:
            failures.append(f"{model_path} batch {batch} via {label}: exit {result.returncode}: {result.stderr.strip()}")
            continue
        problem = mismatch(dict(np.load(outputs_path)), expected)
        if problem:
            failures.append(f"{model_path} batch {batch} via {label}: {problem}")
        else:
            print(f"ok {os.path.basename(model_path)} batch {batch} via {label}")
    return failures


def check_negative_controls(expected):
    """The comparison must reject outputs of other inputs (rows of the batch rolled by one) and
    of another batch size."""
    failures = []
    for name, want in expected.items():
        if want.shape[0] > 1 and not mismatch({name: np.roll(want, 1, axis=0)}, {name: want}):
            failures.append(f"negative control: rolled rows of '{name}' were accepted")
        if not mismatch({name: want[:1]}, {name: want}):
            failures.append(f"negative control: a batch of 1 was accepted for '{name}'")
    return failures


def check_unbound(cli, model_path):
    result = run(cli, [model_path, "--backends", BACKENDS])
    message = result.stderr.strip()
    wanted = ["symbolic dimension 'batch' at axis 0", "--shape"]
    if result.returncode != 1 or len(message.splitlines()) != 1 or not all(part in message for part in wanted):
        return [f"{model_path} without bindings: exit {result.returncode}, stderr {message!r}; expected one line "
                f"with {wanted}"]
    print(f"ok {os.path.basename(model_path)} unbound: {message}")
    return []


def main():
    cli = os.environ.get("COLLAGE_CLI")
    if not cli:
        print("dynamic_batch_test: set COLLAGE_CLI to the collage binary", file=sys.stderr)
        return 2
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for model in MODELS:
            base = os.path.join(zoo_dir(), model + "_dynamic_batch")
            model_path = base + ".onnx"
            if not exports_present(base) and not (export_missing() and exports_present(base)):
                print(f"skipped: {base}.* missing and torch is not importable to export it")
                return 77
            failures += check_unbound(cli, model_path)
            for batch in BATCHES:
                failures += check_batch(cli, model_path, base, batch, work)
            failures += check_negative_controls(dict(np.load(f"{base}.b{BATCHES[-1]}.outputs.npz")))
    for failure in failures:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
