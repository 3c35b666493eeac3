#!/usr/bin/python3
"""Compiles a zoo model (mnist_cnn, exported by models/export_zoo.py when missing) onto the CPU
backends, runs it on the stored input, compares with torch's stored output, runs it ten times
more and prints the placement with each partition's estimated and measured time. Run it with the package on the path, from the repository root:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/quickstart.py
"""

import os
import subprocess
import sys

import numpy as np

import collage

MODEL = "mnist_cnn"
REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZOO = os.path.join(os.environ.get("COLLAGE_CACHE_DIR", os.path.expanduser("~/.cache/collage")), "zoo")

path = os.path.join(ZOO, MODEL + ".onnx")
if not os.path.exists(path):
    subprocess.run([sys.executable, os.path.join(REPOSITORY, "models", "export_zoo.py"), "--models", MODEL], check=True)
inputs = dict(np.load(os.path.join(ZOO, MODEL + ".inputs.npz")))
expected = next(iter(np.load(os.path.join(ZOO, MODEL + ".outputs.npz")).values()))

print("backends:", ", ".join(collage.backends()))
model = collage.compile(path, backends=[b for b in ("onednn", "xnnpack", "native") if b in collage.backends()],
                        threads=2)
logits = model(**inputs)
error = np.max(np.abs(logits - expected)) / np.max(np.abs(expected))
print(f"{MODEL}: output {logits.shape}, error {error:.2e} of its magnitude:",
      "matches torch" if error <= 1e-3 else "DIFFERS from torch")
for _ in range(10):  # the placement's measured times are medians over the runs so far
    model(**inputs)
print(model.placement)
