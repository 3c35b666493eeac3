#!/usr/bin/python3
"""Exports the model zoo to ONNX with seeded random weights, a seeded input and torch's outputs.

    /usr/bin/python3 models/export_zoo.py [--out DIR] [--models a,b] [--list] [--force] [--dynamic-batch]

For each model it writes DIR/<model>.onnx, DIR/<model>.inputs.npz (keyed by the ONNX input
names) and DIR/<model>.outputs.npz (torch's outputs keyed by the ONNX output names). A model
whose three files exist is skipped, unless its exported outputs are degenerate (made by an older
definition, they are nothing checks could fail against).

Random weights make deep networks' activations vanish or explode, so before export every
batch-norm layer's running statistics are calibrated on random batches in training mode
(their cumulative average), as training would have set them; an export whose outputs have a
standard deviation outside [1e-3, 1e3] (or non-finite values) is refused. DIR defaults to
$COLLAGE_CACHE_DIR/zoo, or ~/.cache/collage/zoo.

--dynamic-batch exports DYNAMIC_BATCH_MODELS instead, with a symbolic batch dimension 'batch'
on every input and output: DIR/<model>_dynamic_batch.onnx, and for each batch size B in
DYNAMIC_BATCH_SIZES seeded inputs and torch's outputs in
DIR/<model>_dynamic_batch.b<B>.inputs.npz and .outputs.npz. Needs Debian's python3-torch and
python3-torchvision (no downloads: weights are random, seeded per model).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SEED = 0


def default_cache_dir() -> str:
    base = os.environ.get("COLLAGE_CACHE_DIR")
    if base:
        return os.path.join(base, "zoo")
    return os.path.join(os.path.expanduser("~"), ".cache", "collage", "zoo")


def model_files(out_dir: str, name: str):
    return [os.path.join(out_dir, name + suffix) for suffix in (".onnx", ".inputs.npz", ".outputs.npz")]


OUTPUT_STD_RANGE = (1e-3, 1e3)
CALIBRATION_BATCHES = 4
CALIBRATION_BATCH_SIZE = 2


def degenerate_outputs(arrays) -> dict:
    """Why each degenerate array (name -> numpy array with more than one element) is so: values
    not all finite, or a standard deviation outside OUTPUT_STD_RANGE."""
    import numpy as np

    low, high = OUTPUT_STD_RANGE
    reasons = {}
    for name, array in arrays.items():
        if array.size <= 1:
            continue
        values = np.asarray(array, dtype=np.float64)
        if not np.isfinite(values).all():
            reasons[name] = "has non-finite values"
            continue
        deviation = float(values.std())
        if not low <= deviation <= high:
            reasons[name] = f"has standard deviation {deviation:.3g}, outside [{low:g}, {high:g}]"
    return reasons


def has_degenerate_output(outputs_path: str) -> bool:
    """True when some array of an exported outputs file is degenerate (see degenerate_outputs)."""
    import numpy as np

    with np.load(outputs_path) as arrays:
        return bool(degenerate_outputs({name: arrays[name] for name in arrays.files}))


def calibrate_batch_norms(module, model, seed: int) -> None:
    """Sets every batch-norm layer's running mean and variance to their averages over
    CALIBRATION_BATCHES random batches shaped like the model's inputs, run in training mode."""
    import numpy as np
    import torch

    norms = [layer for layer in module.modules() if isinstance(layer, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None  # cumulative average over the calibration batches
    rng = np.random.default_rng(seed + 1)
    module.train()
    with torch.no_grad():
        for _ in range(CALIBRATION_BATCHES):
            batch = []
            for spec in model.inputs:
                shape = (CALIBRATION_BATCH_SIZE,) + tuple(spec.shape[1:])
                if spec.dtype.startswith("int"):
                    batch.append(torch.from_numpy(rng.integers(0, spec.high, size=shape, dtype=spec.dtype)))
                else:
                    batch.append(torch.from_numpy(rng.standard_normal(shape).astype(spec.dtype)))
            module(*batch)


DYNAMIC_BATCH_MODELS = ["mnist_cnn", "squeezenet1_1"]
DYNAMIC_BATCH_SIZES = [1, 4, 16]


def prepared_module(model):
    """The model's module with seeded weights and calibrated batch norms, in eval mode."""
    import torch

    torch.manual_seed(SEED)
    module = model.build()
    calibrate_batch_norms(module, model, SEED)
    module.eval()
    return module


def run_torch(model, module, inputs) -> dict:
    """torch's outputs (name -> array) for the inputs (name -> array); refuses degenerate ones."""
    import numpy as np
    import torch

    torch_inputs = tuple(torch.from_numpy(inputs[spec.name]) for spec in model.inputs)
    with torch.no_grad():
        outputs = module(*torch_inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    if len(outputs) != len(model.output_names):
        raise RuntimeError(f"{model.name}: {len(outputs)} outputs for names {model.output_names}")
    arrays = {name: np.asarray(output.numpy(), order="C") for name, output in zip(model.output_names, outputs)}
    for name, reason in degenerate_outputs(arrays).items():
        raise RuntimeError(f"{model.name}: output '{name}' {reason} for the example inputs, so checks "
                           "relative to its magnitude would be meaningless")
    return arrays


def write_npz_atomically(path: str, arrays: dict) -> None:
    import numpy as np

    with open(path + ".tmp", "wb") as file:
        np.savez(file, **arrays)
    os.replace(path + ".tmp", path)


def export_onnx_atomically(model, module, inputs, path: str, dynamic_batch: bool) -> None:
    import torch

    torch_inputs = tuple(torch.from_numpy(inputs[spec.name]) for spec in model.inputs)
    names = [spec.name for spec in model.inputs] + model.output_names
    torch.onnx.export(module, torch_inputs, path + ".tmp", opset_version=model.opset,
                      input_names=[spec.name for spec in model.inputs], output_names=model.output_names,
                      do_constant_folding=True,
                      dynamic_axes={name: {0: "batch"} for name in names} if dynamic_batch else None)
    os.replace(path + ".tmp", path)


def export_model(model, out_dir: str) -> float:
    """Exports one zoo model; returns the seconds it took. Files are written atomically."""
    start = time.monotonic()
    module = prepared_module(model)
    inputs = model.example_inputs(SEED)
    arrays = run_torch(model, module, inputs)
    onnx_path, inputs_path, outputs_path = model_files(out_dir, model.name)
    export_onnx_atomically(model, module, inputs, onnx_path, dynamic_batch=False)
    write_npz_atomically(inputs_path, inputs)
    write_npz_atomically(outputs_path, arrays)
    return time.monotonic() - start


def export_dynamic_batch(model, out_dir: str) -> float:
    """Exports one zoo model with a symbolic batch dimension, with inputs and torch's outputs at
    every batch size of DYNAMIC_BATCH_SIZES; returns the seconds it took."""
    import numpy as np

    start = time.monotonic()
    module = prepared_module(model)
    base = os.path.join(out_dir, model.name + "_dynamic_batch")
    for batch in DYNAMIC_BATCH_SIZES:
        rng = np.random.default_rng(SEED + batch)
        inputs = {spec.name: rng.standard_normal((batch,) + tuple(spec.shape[1:])).astype(spec.dtype)
                  for spec in model.inputs}
        if batch == DYNAMIC_BATCH_SIZES[0]:
            export_onnx_atomically(model, module, inputs, base + ".onnx", dynamic_batch=True)
        write_npz_atomically(f"{base}.b{batch}.inputs.npz", inputs)
        write_npz_atomically(f"{base}.b{batch}.outputs.npz", run_torch(model, module, inputs))
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=default_cache_dir(), help="output folder (default: %(default)s)")
    parser.add_argument("--models", default="", help="comma-separated model names (default: all)")
    parser.add_argument("--small", action="store_true", help="only the models cheap enough for the default tests")
    parser.add_argument("--list", action="store_true", help="list the zoo models and exit")
    parser.add_argument("--force", action="store_true", help="re-export models that already exist")
    parser.add_argument("--dynamic-batch", action="store_true",
                        help="export " + ", ".join(DYNAMIC_BATCH_MODELS) + " with a symbolic batch dimension")
    args = parser.parse_args()

    from zoo_models import ZOO, ZOO_BY_NAME

    if args.dynamic_batch:
        os.makedirs(args.out, exist_ok=True)
        for name in DYNAMIC_BATCH_MODELS:
            seconds = export_dynamic_batch(ZOO_BY_NAME[name], args.out)
            print(f"{name}_dynamic_batch: exported in {seconds:.1f} s")
        return 0

    if args.list:
        for model in ZOO:
            shapes = ", ".join(f"{spec.name}={'x'.join(map(str, spec.shape))}:{spec.dtype}" for spec in model.inputs)
            tag = "small" if model.small else "large"
            print(f"{model.name:18} opset {model.opset:2}  {tag}  {shapes}  {model.description}")
        return 0

    selected = ZOO
    if args.models:
        names = [name.strip() for name in args.models.split(",") if name.strip()]
        unknown = [name for name in names if name not in ZOO_BY_NAME]
        if unknown:
            print(f"export_zoo: unknown model(s) {', '.join(unknown)}; known: {', '.join(ZOO_BY_NAME)}",
                  file=sys.stderr)
            return 2
        selected = [ZOO_BY_NAME[name] for name in names]
    if args.small:
        selected = [model for model in selected if model.small]

    os.makedirs(args.out, exist_ok=True)
    failures = 0
    for model in selected:
        if not args.force and all(os.path.exists(path) for path in model_files(args.out, model.name)):
            if not has_degenerate_output(model_files(args.out, model.name)[2]):
                print(f"{model.name}: already exported, skipped")
                continue
            print(f"{model.name}: the exported outputs are degenerate (an older definition), exported again")
        try:
            seconds = export_model(model, args.out)
            print(f"{model.name}: exported in {seconds:.1f} s")
        except Exception as error:  # report every model, then fail
            failures += 1
            first_line = str(error).splitlines()[0] if str(error) else ""
            print(f"export_zoo: {model.name}: {type(error).__name__}: {first_line}",
                  file=sys.stderr)
        sys.stdout.flush()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
