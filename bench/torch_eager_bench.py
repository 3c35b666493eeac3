#!/usr/bin/python3
"""PyTorch eager latency of a torchvision model, the baseline for onednn_model_bench.

    /usr/bin/python3 bench/torch_eager_bench.py resnet50 [--threads 2] [--runs 20] [--warmup 3] [--inputs X.npz]

Random weights (latency does not depend on them); the input is the first array of --inputs
(the zoo's MODEL.inputs.npz) or a seeded 1x3x224x224 tensor. Prints `run_ms_median <t>` and
`run_ms_min <t>`.
"""
import argparse
import statistics
import time

import numpy as np
import torch
import torchvision


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
    model = getattr(torchvision.models, args.model)(weights=None).eval()
    if args.inputs:
        archive = np.load(args.inputs)
        x = torch.from_numpy(archive[archive.files[0]])
    else:
        x = torch.randn(1, 3, 224, 224)
    times = []
    with torch.no_grad():
        for _ in range(args.warmup):
            model(x)
        for _ in range(args.runs):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    print(f"run_ms_median {statistics.median(times):.3f}")
    print(f"run_ms_min {min(times):.3f}")


if __name__ == "__main__":
    main()
