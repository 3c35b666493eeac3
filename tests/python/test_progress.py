"""Measured tuning through the package: progress to a callable, to a terminal's stderr only,
the cost database reused, and the graph-level stage."""

import os
import pty
import re
import subprocess
import sys

import numpy as np
import pytest

import collage
from conftest import BUILD, has_backend

TINY = """def @main(%x: Tensor[(8, 16), f32], %w: Tensor[(16, 16), f32]) {
  %0 = nn.dense(%x, %w)
  %1 = nn.relu(%0)
  add(%1, %x)
}"""

TUNE = """
import sys
sys.path.insert(0, sys.argv[1])
import collage
collage.compile(collage.Model.from_text(sys.argv[3], "tiny.cir"), backends=["native"], cost="measured", db=sys.argv[2])
print("compiled")
"""


def tiny():
    return collage.Model.from_text(TINY, "tiny.cir")


def test_measured_tuning_reports_progress_and_reuses_the_database(tmp_path):
    events = []
    database = str(tmp_path / "costs.sqlite")
    collage.compile(tiny(), backends=["native"], cost="measured", db=database,
                    progress=lambda *event: events.append(event))
    assert events, "a fresh database measures, and measuring reports progress"
    stage, done, total, current = events[-1]
    assert stage == "measuring" and done == total and current
    events.clear()
    compiled = collage.compile(tiny(), backends=["native"], cost="measured", db=database,
                               progress=lambda *event: events.append(event))
    # A warm database measures nothing, unless costs were timed while the machine was busier
    # than it is now: the tuning's account counts those, and only those are measured again.
    measured = int(re.search(r" (\d+) measured \(", compiled.tuning).group(1))
    busier = re.search(r"; (\d+) stored costs timed on a busier machine", compiled.tuning)
    assert measured == (int(busier.group(1)) if busier else 0), compiled.tuning
    assert (events == []) == (measured == 0)
    assert compiled.placement.cost == "measured"


def test_no_progress_is_written_when_stderr_is_not_a_terminal(tmp_path):
    result = subprocess.run([sys.executable, "-c", TUNE, os.path.join(BUILD, "python"), str(tmp_path / "c.sqlite"),
                             TINY], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "compiled"
    assert "measuring [" not in result.stderr


def test_progress_is_drawn_when_stderr_is_a_terminal(tmp_path):
    # Negative control of the test above: the same tuning under a pseudo-terminal draws the bar.
    leader, follower = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", TUNE, os.path.join(BUILD, "python"), str(tmp_path / "c.sqlite"),
                                TINY], stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    process.wait()
    os.close(leader)
    assert process.returncode == 0
    assert b"measuring [" in drawn


def test_the_graph_stage_runs_through_the_package(tmp_path):
    if not has_backend("onednn"):
        pytest.skip("built without onednn")
    compiled = collage.compile(tiny(), backends=["onednn", "native"], cost="measured", search="graph", graph_budget=1,
                               db=tmp_path / "costs.sqlite", progress=False)
    x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    w = np.random.default_rng(1).standard_normal((16, 16)).astype(np.float32)
    expected = np.maximum(x @ w.T, 0) + x
    actual = compiled(x, w)
    assert np.max(np.abs(actual - expected)) <= 1e-3 * np.max(np.abs(expected))
    assert {partition.backend for partition in compiled.placement} <= {"onednn", "native"}
