"""The thread count reaches the backends: a run with threads=N starts that many worker threads
(counted in /proc/self/task in a fresh interpreter), threads=1 none."""

import os
import subprocess
import sys

import pytest

import collage
from conftest import BUILD, has_backend

COUNT_THREADS = """
import os, sys
sys.path.insert(0, sys.argv[1])
import numpy as np, collage
model = collage.compile(collage.Model.from_text(
    "def @main(%x: Tensor[(64, 256), f32], %w: Tensor[(256, 256), f32]) { nn.dense(%x, %w) }", "dense.cir"),
    backends=[sys.argv[2]], threads=int(sys.argv[3]))
before = len(os.listdir("/proc/self/task"))
model(np.ones((64, 256), np.float32), np.ones((256, 256), np.float32))
print(before, len(os.listdir("/proc/self/task")))
"""


def threads_after_a_run(backend: str, threads: int):
    result = subprocess.run([sys.executable, "-c", COUNT_THREADS, os.path.join(BUILD, "python"), backend,
                             str(threads)], capture_output=True, text=True, check=True)
    before, after = map(int, result.stdout.split())
    return before, after


@pytest.mark.parametrize("backend", ["onednn", "native"])
def test_a_run_starts_the_worker_threads_asked_for(backend):
    if not has_backend(backend):
        pytest.skip(f"built without {backend}")
    _, with_one = threads_after_a_run(backend, 1)
    _, with_three = threads_after_a_run(backend, 3)
    # Negative control: with one thread the run starts no worker; with three, two more.
    assert with_three - with_one == 2


def test_the_thread_count_is_kept(relu_model):
    assert collage.compile(relu_model, backends=["native"], threads=3).threads == 3


def test_threads_must_be_an_integer(relu_model):
    with pytest.raises(collage.UsageError, match="--threads expects an integer, got '2.5'"):
        collage.compile(relu_model, threads=2.5)
