#!/usr/bin/python3
"""Exports the model zoo to ONNX with seeded random weights, a seeded input and torch's outputs.

    /usr/bin/python3 models/export_zoo.py [--out DIR] [--models a,b] [--list] [--force]

For each model it writes DIR/<model>.onnx, DIR/<model>.inputs.npz (keyed by the ONNX input
names) and DIR/<model>.outputs.npz (torch's outputs keyed by the ONNX output names). A model
whose three files exist is skipped, unless its exported outputs are constant (made by an older
definition, they are nothing checks could fail against). DIR defaults to
$COLLAGE_CACHE_DIR/zoo, or ~/.cache/collage/zoo. Needs Debian's python3-torch and
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


def constant_outputs(arrays) -> list:
    """The names of the arrays (name -> numpy array) that have more than one element, all equal."""
    return [name for name, array in arrays.items() if array.size > 1 and bool((array == array.flat[0]).all())]


def has_constant_output(outputs_path: str) -> bool:
    """True when some array of an exported outputs file is constant (see constant_outputs)."""
    import numpy as np

    with np.load(outputs_path) as arrays:
        return bool(constant_outputs({name: arrays[name] for name in arrays.files}))


def export_model(model, out_dir: str) -> float:
    """Exports one zoo model; returns the seconds it took. Files are written atomically."""
    import numpy as np
    import torch

    start = time.monotonic()
    torch.manual_seed(SEED)
    module = model.build().eval()
    inputs = model.example_inputs(SEED)
    torch_inputs = tuple(torch.from_numpy(inputs[spec.name]) for spec in model.inputs)
    with torch.no_grad():
        outputs = module(*torch_inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    if len(outputs) != len(model.output_names):
        raise RuntimeError(f"{model.name}: {len(outputs)} outputs for names {model.output_names}")
    arrays = {name: np.asarray(output.numpy(), order="C") for name, output in zip(model.output_names, outputs)}
    for name in constant_outputs(arrays):
        raise RuntimeError(f"{model.name}: output '{name}' is constant ({arrays[name].flat[0]}) for the "
                           "example inputs, so checks against it could not fail")

    onnx_path, inputs_path, outputs_path = model_files(out_dir, model.name)
    temporary = [path + ".tmp" for path in (onnx_path, inputs_path, outputs_path)]
    torch.onnx.export(module, torch_inputs, temporary[0], opset_version=model.opset,
                      input_names=[spec.name for spec in model.inputs], output_names=model.output_names,
                      do_constant_folding=True)
    with open(temporary[1], "wb") as file:
        np.savez(file, **inputs)
    with open(temporary[2], "wb") as file:
        np.savez(file, **arrays)
    for source, target in zip(temporary, (onnx_path, inputs_path, outputs_path)):
        os.replace(source, target)
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=default_cache_dir(), help="output folder (default: %(default)s)")
    parser.add_argument("--models", default="", help="comma-separated model names (default: all)")
    parser.add_argument("--small", action="store_true", help="only the models cheap enough for the default tests")
    parser.add_argument("--list", action="store_true", help="list the zoo models and exit")
    parser.add_argument("--force", action="store_true", help="re-export models that already exist")
    args = parser.parse_args()

    from zoo_models import ZOO, ZOO_BY_NAME

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
            if not has_constant_output(model_files(args.out, model.name)[2]):
                print(f"{model.name}: already exported, skipped")
                continue
            print(f"{model.name}: the exported outputs are constant (an older definition), exported again")
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
