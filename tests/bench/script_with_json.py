"""Runs a bench/ script that writes its results as JSON (--json OUT) and reads them back, and
compares its figures relative to their magnitude: the scripts' tests share it."""

import json
import os
import subprocess
import sys
import tempfile
from typing import Optional, Tuple

# Stands for the path of the file holding `results` among a script's arguments.
RESULTS = object()


def run_with_json(script: str, *arguments, results=None) -> Tuple[subprocess.CompletedProcess, Optional[object]]:
    """(the finished process, the JSON it wrote or None when it failed). With `results`, they are
    written to a file first, whose path replaces RESULTS in the arguments."""
    with tempfile.TemporaryDirectory() as folder:
        results_path = os.path.join(folder, "results.json")
        out_path = os.path.join(folder, "out.json")
        if results is not None:
            with open(results_path, "w") as file:
                json.dump(results, file)
        command = [sys.executable, script] + [results_path if argument is RESULTS else argument
                                              for argument in arguments] + ["--json", out_path]
        completed = subprocess.run(command, capture_output=True, text=True)
        written = None
        if completed.returncode == 0:
            with open(out_path) as file:
                written = json.load(file)
        return completed, written


def assert_close(test, actual, expected, relative=1e-9):
    """Fails `test` unless |actual - expected| <= relative * |expected| (figures of any scale)."""
    test.assertLessEqual(abs(actual - expected), relative * abs(expected), f"{actual} != {expected}")
