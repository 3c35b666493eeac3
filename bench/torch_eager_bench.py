#!/usr/bin/python3
"""PyTorch eager latency of a zoo or torchvision model, the external baseline of the benchmarks.

    /usr/bin/python3 bench/torch_eager_bench.py resnet50 [--threads 2] [--runs 20] [--warmup 3] [--inputs X.npz]

A zoo model (models/zoo_models.py: bert_encoder, gpt2_decoder, dcgan_generator, ...) is built as
the zoo builds it, any other name as a torchvision model. Random weights (latency does not depend
on them); the inputs are the arrays of --inputs (the zoo's MODEL.inputs.npz, in the model's input
order) or the zoo's seeded example inputs (a seeded 1x3x224x224 tensor for a torchvision model).
Prints `cpu <model name>`, `run_ms_median <t>` and `run_ms_min <t>`.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
from zoo_models import ZOO_BY_NAME  # noqa: E402

from machine import cpu_model  # noqa: E402


def model_and_inputs(name: str, inputs_path: str):
    """The module in eval mode and its positional input tensors."""
    zoo_model = ZOO_BY_NAME.get(name)
    if zoo_model is None:
        model = getattr(torchvision.models, name)(weights=None)
        if inputs_path:
            archive = np.load(inputs_path)
            arrays = [archive[archive.files[0]]]
        else:
            arrays = [torch.randn(1, 3, 224, 224).numpy()]
    else:
        model = zoo_model.build()
        archive = np.load(inputs_path) if inputs_path else zoo_model.example_inputs(0)
        arrays = [archive[spec.name] for spec in zoo_model.inputs]
    return model.eval(), [torch.from_numpy(np.asarray(array)) for array in arrays]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--inputs")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    model, inputs = model_and_inputs(args.model, args.inputs)
    times = []
    with torch.no_grad():
        for _ in range(args.warmup):
            model(*inputs)
        for _ in range(args.runs):
            start = time.perf_counter()
            model(*inputs)
            times.append((time.perf_counter() - start) * 1e3)
    print(f"cpu {cpu_model()}")
    print(f"run_ms_median {statistics.median(times):.3f}")
    print(f"run_ms_min {min(times):.3f}")


if __name__ == "__main__":
    main()
