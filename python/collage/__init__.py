"""Collage for Python: compile a model (ONNX or Collage's text IR) onto CPU backends, run it on
numpy arrays, inspect its placement, save its plan and write its placement report.

    import collage, numpy as np
    model = collage.compile("resnet18.onnx", backends=["onednn", "native"], threads=2)
    logits = model(np.zeros((1, 3, 224, 224), np.float32))
    print(model.placement)

Errors raise collage.Error: UsageError (bad options or inputs), ModelError (a model or plan that
cannot be loaded or placed), BackendError (a backend failing to compile or run a partition),
each with the one-line message the `collage` tool prints.
"""

import os
import sys
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._collage import (BackendError, CompiledModel as _NativeCompiledModel, Error, Model, ModelError, Partition,
                       Placement, TensorInfo, UsageError)
from . import _collage

__all__ = ["Error", "UsageError", "ModelError", "BackendError", "Model", "Partition", "Placement", "TensorInfo",
           "CompiledModel", "load", "compile", "load_plan", "backends"]

ModelLike = Union[str, os.PathLike, bytes, Model]
ProgressCallback = Callable[[str, int, int, str], None]


def backends() -> List[str]:
    """The backends of this build, in the registry's order."""
    return _collage.backends()


def load(model: ModelLike, shapes: Optional[Mapping[str, Sequence[int]]] = None) -> Model:
    """A model from a path (.onnx, else text IR), ONNX bytes, or a Model (returned as it is).
    `shapes` binds an ONNX model's symbolic input dimensions by input name."""
    shapes = {name: [int(d) for d in dims] for name, dims in (shapes or {}).items()}
    if isinstance(model, Model):
        if shapes:
            raise UsageError("shapes bind a model while it is loaded; pass the path or the bytes")
        return model
    if isinstance(model, (bytes, bytearray)):
        return Model.from_onnx_bytes(bytes(model), "model.onnx", shapes)
    if isinstance(model, (str, os.PathLike)):
        return Model.load(os.fspath(model), shapes)
    raise UsageError(f"a model is a path, ONNX bytes or a collage.Model, not a {type(model).__name__}")


class _TerminalProgress:
    """Tuning's progress on one redrawn line of stderr (shown only when stderr is a terminal)."""

    def __init__(self, stream):
        self._stream = stream

    def __call__(self, stage: str, done: int, total: int, current: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        line = f"\r{stage} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {current[:60]}"
        self._stream.write(line + "\x1b[K" + ("\n" if done >= total else ""))
        self._stream.flush()


class CompiledModel:
    """A model placed on backends and compiled. Call it with numpy arrays, by position
    (`model(x, y)`) or by input name (`model(x=..., y=...)`); it returns one numpy array for a
    single output, else a tuple. Arrays of the input's dtype in C order are used in place (not
    copied); other layouts are copied into C order; another dtype is a UsageError."""

    def __init__(self, native: _NativeCompiledModel):
        self._native = native

    def __call__(self, *arrays: np.ndarray, **named: np.ndarray) -> Union[np.ndarray, Tuple[np.ndarray, ...]]:
        outputs = list(self.run(*arrays, **named).values())
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def run(self, *arrays: np.ndarray, **named: np.ndarray) -> Dict[str, np.ndarray]:
        """The outputs by name: "output" for one result, "output0", "output1", ... for several."""
        if arrays and named:
            raise UsageError("pass the inputs either by position or by name, not both")
        return self._native.run(named if named else list(arrays))

    @property
    def inputs(self) -> List[TensorInfo]:
        return self._native.inputs

    @property
    def threads(self) -> int:
        return self._native.threads

    @property
    def placement(self) -> Placement:
        """The partitions (backend, ops, layout, estimated and, after a run, measured ms)."""
        return self._native.placement()

    @property
    def tuning(self) -> Optional[str]:
        """With measured costs, the tuning's one-line account (candidates, database hits,
        measurements, invalid ones, those timed again because the machine was busy); else None."""
        return self._native.tuning

    def save_plan(self, path: Union[str, os.PathLike]) -> None:
        """Writes the plan file that collage.load_plan and `collage run --plan` read."""
        self._native.save_plan(os.fspath(path))

    def report(self, path: Union[str, os.PathLike]) -> None:
        """Runs the model on seeded inputs and writes the HTML placement report."""
        self._native.write_report(os.fspath(path))


def compile(model: ModelLike, backends: Optional[Sequence[str]] = None, cost: str = "analytic", search: str = "op",
            threads: int = 1, db: Optional[Union[str, os.PathLike]] = None, graph_budget: float = 120,
            seed: int = 0, shapes: Optional[Mapping[str, Sequence[int]]] = None,
            progress: Union[None, bool, ProgressCallback] = None, precision: str = "fp32",
            tolerance: float = 1e-2, metric: str = "rel-l2",
            calibration: Optional[Sequence[Union[str, os.PathLike]]] = None) -> CompiledModel:
    """Places `model` on `backends` (in priority order; default: every backend) by the `cost`
    model ("analytic" or "measured") and `search` ("op" or "graph", which needs measured costs),
    compiles it for `threads` threads. `db` is the measured-cost database (default: the user's).
    `precision="auto"` (measured costs, op search) lets partitions compute in reduced precision
    within `tolerance` by `metric` ("rel-l2", "max-rel", "top1") on the `calibration` .npz
    argument sets (default: 8 seeded random sets), when that is measured faster.
    Tuning progress goes to stderr when it is a terminal (`progress=None`), to a callable
    `progress(stage, done, total, current)`, or nowhere (`progress=False`)."""
    if progress is None:
        progress = _TerminalProgress(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else False
    if progress is True:
        progress = _TerminalProgress(sys.stderr)
    return CompiledModel(_collage.compile(load(model, shapes), list(backends or []), str(cost), str(search),
                                          _threads(threads), None if db is None else os.fspath(db),
                                          float(graph_budget), int(seed), progress or None, str(precision),
                                          float(tolerance), str(metric),
                                          [os.fspath(path) for path in calibration or []]))


def load_plan(model: ModelLike, plan: Union[str, os.PathLike], threads: int = 1,
              shapes: Optional[Mapping[str, Sequence[int]]] = None) -> CompiledModel:
    """Compiles the placement of a plan file made for this model (by save_plan or `collage
    partition -o`); a plan made for another model or other shapes is a ModelError."""
    return CompiledModel(_collage.load_plan(load(model, shapes), os.fspath(plan), _threads(threads)))


def _threads(threads) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise UsageError(f"--threads expects an integer, got '{threads}'")
    return threads
