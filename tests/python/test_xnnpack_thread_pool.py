"""XNNPACK runs in a process that loaded libXNNPACK before Collage: torch links the same library,
so after `import torch` XNNPACK's loops stay bound to libpthreadpool's own functions rather
than Collage's OpenMP ones (src/backend/xnnpack/openmp_thread_pool.h), and the pools Collage
creates must work there too. Each order runs in a fresh interpreter; a pool the library cannot
use crashes it."""

import importlib.util
import os
import subprocess
import sys

import pytest

from conftest import BUILD, has_backend

RUN_SILU = """
import sys
if sys.argv[2] == "torch first":
    import torch  # noqa: F401
sys.path.insert(0, sys.argv[1])
import numpy as np, collage
model = collage.compile(collage.Model.from_text(
    "def @main(%x: Tensor[(64, 4096), f32]) { multiply(%x, sigmoid(%x)) }", "silu.cir"),
    backends=["xnnpack"], threads=2)
x = np.random.default_rng(0).uniform(-4, 4, (64, 4096)).astype(np.float32)
for _ in range(3):
    y = model(x)
expected = x / (1 + np.exp(-x))
print(float(np.max(np.abs(y - expected)) / np.max(np.abs(expected))))
"""


@pytest.mark.parametrize("order", ["collage alone", "torch first"])
def test_xnnpack_runs_whichever_thread_pool_its_loops_are_bound_to(order):
    if not has_backend("xnnpack"):
        pytest.skip("built without xnnpack")
    if order == "torch first" and importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    result = subprocess.run([sys.executable, "-c", RUN_SILU, os.path.join(BUILD, "python"), order],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{order}: exit status {result.returncode}\n{result.stderr[-2000:]}"
    assert float(result.stdout.split()[-1]) <= 1e-3
