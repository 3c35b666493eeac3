"""Shared fixtures of the Python package's tests (run by ctest's PythonPackage test, or by hand:
PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python).

Outputs are compared with torch's (the zoo's stored outputs) or the reference backend's by the
repository's rule: max |actual - expected| <= 1e-3 * max |expected| per output."""

import os
import subprocess
import sys

import numpy as np
import pytest

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("COLLAGE_BUILD_DIR", os.path.join(REPOSITORY, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))

import collage  # noqa: E402

RELATIVE_TOLERANCE = 1e-3


def zoo_dir() -> str:
    base = os.environ.get("COLLAGE_CACHE_DIR")
    return os.path.join(base, "zoo") if base else os.path.join(os.path.expanduser("~"), ".cache", "collage", "zoo")


def zoo_model(name: str):
    """(path of the ONNX file, inputs by name, torch's outputs in order), exported if missing."""
    paths = [os.path.join(zoo_dir(), name + suffix) for suffix in (".onnx", ".inputs.npz", ".outputs.npz")]
    if not all(os.path.exists(path) for path in paths):
        subprocess.run(["/usr/bin/python3", os.path.join(REPOSITORY, "models", "export_zoo.py"), "--models", name],
                       check=True, stdout=subprocess.DEVNULL)
    inputs = dict(np.load(paths[1]))
    outputs = list(np.load(paths[2]).values())
    return paths[0], inputs, outputs


def scaled_error(actual: np.ndarray, expected: np.ndarray) -> float:
    """max |actual - expected| / max |expected| (the error relative to the output's magnitude)."""
    assert actual.shape == expected.shape, f"shape {actual.shape} != {expected.shape}"
    magnitude = float(np.max(np.abs(expected.astype(np.float64)))) if expected.size else 0.0
    error = float(np.max(np.abs(actual.astype(np.float64) - expected.astype(np.float64)))) if expected.size else 0.0
    return error / magnitude if magnitude > 0 else error


def assert_matches(actual, expected) -> None:
    actual = actual if isinstance(actual, (list, tuple)) else [actual]
    expected = expected if isinstance(expected, (list, tuple)) else [expected]
    assert len(actual) == len(expected)
    for index, (a, e) in enumerate(zip(actual, expected)):
        error = scaled_error(np.asarray(a), np.asarray(e))
        assert error <= RELATIVE_TOLERANCE, f"output {index}: error {error:.3g} of the output's magnitude"


def collage_cli() -> str:
    return os.environ.get("COLLAGE_CLI", os.path.join(BUILD, "bin", "collage"))


def cli_error(*arguments: str, environment=None) -> str:
    """The message of `collage ARGUMENTS...`'s one-line error, without the prefix and the --help pointer."""
    result = subprocess.run([collage_cli(), *arguments], capture_output=True, text=True, env=environment)
    assert result.returncode != 0, result.stdout
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("collage: error: "), line
    message = line[len("collage: error: "):]
    pointer = message.rfind(" (run 'collage")
    return message[:pointer] if pointer >= 0 else message


def has_backend(name: str) -> bool:
    return name in collage.backends()


RELU_MODEL = "def @main(%x: Tensor[(2, 3), f32]) { nn.relu(%x) }"
PAIR_MODEL = """def @main(%x: Tensor[(2, 3), f32], %y: Tensor[(2, 3), f32]) {
  %0 = add(%x, %y)
  %1 = multiply(%x, %y)
  (%0, %1)
}"""


@pytest.fixture
def relu_model():
    return collage.Model.from_text(RELU_MODEL, "relu.cir")


@pytest.fixture
def pair_model():
    return collage.Model.from_text(PAIR_MODEL, "pair.cir")


@pytest.fixture(scope="session")
def mnist():
    return zoo_model("mnist_cnn")
