#!/usr/bin/python3
"""Writes the ONNX models of the importer tests into a folder.

    /usr/bin/python3 tests/frontend/onnx/make_test_models.py OUT_DIR

For every good case NAME: NAME.onnx, NAME.inputs.npz (keyed by graph input name) and
NAME.outputs.npz (the expected outputs, computed here with numpy, keyed by graph output
name). For every bad case: bad_NAME.onnx (malformed on purpose; the C++ test holds the
expected error message). manifest.txt lists the good cases, bad_manifest.txt the bad ones.
Needs numpy and Debian's python3-onnx (no torch).
"""

import math
import os
import sys

import numpy as np
from onnx import TensorProto, helper, mapping, numpy_helper

RNG = np.random.default_rng(1234)
GOOD = {}
BAD = {}
INT64_MAX = np.iinfo(np.int64).max


def single_precision(array):
    array = np.asarray(array, order="C")
    return array.astype(np.float32) if array.dtype == np.float64 else array


class Case:
    def __init__(self, nodes, inputs, outputs, initializers=None, opset=13):
        self.nodes = nodes
        self.inputs = {key: single_precision(value) for key, value in inputs.items()}  # graph inputs
        self.outputs = {key: single_precision(value) for key, value in outputs.items()}  # expected
        self.initializers = initializers or {}  # name -> array or TensorProto
        self.opset = opset


def good(name):
    def register(function):
        GOOD[name] = function
        return function

    return register


def bad(name):
    def register(function):
        BAD[name] = function
        return function

    return register


def rand(*shape, low=-1.0, high=1.0):
    return RNG.uniform(low, high, size=shape).astype(np.float32)


def value_info(name, array):
    return helper.make_tensor_value_info(name, mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype], list(array.shape))


def build_model(case, name):
    graph = helper.make_graph(
        case.nodes, name,
        [value_info(key, value) for key, value in case.inputs.items()],
        [value_info(key, np.asarray(value)) for key, value in case.outputs.items()],
        [value if isinstance(value, TensorProto) else numpy_helper.from_array(single_precision(value), key)
         for key, value in case.initializers.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", case.opset)], producer_name="collage-tests")


def node(op, inputs, outputs, name=None, **attrs):
    return helper.make_node(op, inputs, outputs, name=name or (op + "_0"), **attrs)


def i64(*values):
    return np.array(values, dtype=np.int64)


# ----------------------------------------------------------------------------------------------
# numpy references


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=axis, keepdims=True)


def conv2d(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), dilations=(1, 1), group=1):
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, _, h, width = x.shape
    m, cg, kh, kw = w.shape
    padded = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    oh = (h + pads[0] + pads[2] - ((kh - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (width + pads[1] + pads[3] - ((kw - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.zeros((n, m, oh, ow))
    mg = m // group
    for g in range(group):
        xs = padded[:, g * cg:(g + 1) * cg]
        ws = w[g * mg:(g + 1) * mg]
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dilations[0], kx * dilations[1]
                rows = slice(y0, y0 + strides[0] * (oh - 1) + 1, strides[0])
                columns = slice(x0, x0 + strides[1] * (ow - 1) + 1, strides[1])
                patch = xs[:, :, rows, columns]
                out[:, g * mg:(g + 1) * mg] += np.einsum("nchw,mc->nmhw", patch, ws[:, :, ky, kx])
    if b is not None:
        out += b[None, :, None, None]
    return out.astype(np.float32)


def conv_transpose2d(x, w, b=None, strides=(1, 1), pads=(0, 0, 0, 0), output_padding=(0, 0), dilations=(1, 1),
                     group=1):
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c, h, width = x.shape
    _, mg, kh, kw = w.shape
    cg = c // group
    full_h = (h - 1) * strides[0] + (kh - 1) * dilations[0] + 1 + output_padding[0]
    full_w = (width - 1) * strides[1] + (kw - 1) * dilations[1] + 1 + output_padding[1]
    full = np.zeros((n, mg * group, full_h, full_w))
    for g in range(group):
        xs = x[:, g * cg:(g + 1) * cg]
        ws = w[g * cg:(g + 1) * cg]
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dilations[0], kx * dilations[1]
                contribution = np.einsum("nchw,cm->nmhw", xs, ws[:, :, ky, kx])
                full[:, g * mg:(g + 1) * mg, y0:y0 + strides[0] * (h - 1) + 1:strides[0],
                     x0:x0 + strides[1] * (width - 1) + 1:strides[1]] += contribution
    out = full[:, :, pads[0]:full_h - pads[2], pads[1]:full_w - pads[3]]
    if b is not None:
        out = out + b[None, :, None, None]
    return out.astype(np.float32)


def pool2d(x, kind, kernel, strides=(1, 1), pads=(0, 0, 0, 0), ceil_mode=0, count_include_pad=0, dilations=(1, 1)):
    n, c, h, width = x.shape
    extents = [(kernel[i] - 1) * dilations[i] + 1 for i in range(2)]
    sizes = []
    for axis, extent_in in enumerate((h, width)):
        span = extent_in + pads[axis] + pads[axis + 2] - extents[axis]
        out = (-(-span // strides[axis]) if ceil_mode else span // strides[axis]) + 1
        if ceil_mode and (out - 1) * strides[axis] >= extent_in + pads[axis]:
            out -= 1
        sizes.append(out)
    result = np.zeros((n, c, sizes[0], sizes[1]), dtype=np.float64)
    for oy in range(sizes[0]):
        for ox in range(sizes[1]):
            values = []
            padded_taps = 0
            for ky in range(kernel[0]):
                for kx in range(kernel[1]):
                    iy = oy * strides[0] - pads[0] + ky * dilations[0]
                    ix = ox * strides[1] - pads[1] + kx * dilations[1]
                    if -pads[0] <= iy < h + pads[2] and -pads[1] <= ix < width + pads[3]:
                        padded_taps += 1
                    if 0 <= iy < h and 0 <= ix < width:
                        values.append(x[:, :, iy, ix])
            if kind == "max":
                result[:, :, oy, ox] = np.max(values, axis=0)
            else:
                divisor = padded_taps if count_include_pad else len(values)
                result[:, :, oy, ox] = np.sum(values, axis=0) / divisor
    return result.astype(np.float32)


def resize_source(out_index, in_extent, out_extent, mode):
    scale = out_extent / in_extent
    if mode == "align_corners":
        return 0.0 if out_extent == 1 else out_index * (in_extent - 1) / (out_extent - 1)
    if mode == "asymmetric":
        return out_index / scale
    if mode == "pytorch_half_pixel" and out_extent == 1:
        return 0.0
    return (out_index + 0.5) / scale - 0.5


def resize_taps(out_index, in_extent, out_extent, method, mode, nearest_mode):
    coordinate = resize_source(out_index, in_extent, out_extent, mode)
    if method == "nearest":
        if nearest_mode == "floor":
            position = math.floor(coordinate)
        elif nearest_mode == "ceil":
            position = math.ceil(coordinate)
        elif coordinate - math.floor(coordinate) == 0.5:
            position = math.floor(coordinate) if nearest_mode == "round_prefer_floor" else math.ceil(coordinate)
        else:
            position = round(coordinate)
        return [(min(max(position, 0), in_extent - 1), 1.0)]
    coordinate = min(max(coordinate, 0.0), in_extent - 1)
    left = int(math.floor(coordinate))
    fraction = coordinate - left
    right = min(left + 1, in_extent - 1)
    return [(left, 1.0 - fraction), (right, fraction)]


def resize2d(x, size, method, mode, nearest_mode="round_prefer_floor"):
    n, c, h, width = x.shape
    out = np.zeros((n, c, size[0], size[1]), dtype=np.float64)
    for oy in range(size[0]):
        for ox in range(size[1]):
            for iy, wy in resize_taps(oy, h, size[0], method, mode, nearest_mode):
                for ix, wx in resize_taps(ox, width, size[1], method, mode, nearest_mode):
                    out[:, :, oy, ox] += wy * wx * x[:, :, iy, ix]
    return out.astype(np.float32)


def layer_norm(x, gamma, beta, axis, epsilon):
    axes = tuple(range(axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return ((x - mean) / np.sqrt(variance + epsilon) * gamma + beta).astype(np.float32)


# ----------------------------------------------------------------------------------------------
# good cases: elementwise

UNARY = {
    "Relu": lambda x: np.maximum(x, 0),
    "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "Tanh": np.tanh,
    "Erf": erf,
    "Exp": np.exp,
    "Log": np.log,
    "Sqrt": np.sqrt,
    "Abs": np.abs,
    "Neg": np.negative,
    "Floor": np.floor,
    "Ceil": np.ceil,
    "Round": np.round,
    "Reciprocal": lambda x: 1 / x,
}


def make_unary(op, reference):
    def build():
        x = rand(2, 3, 4, low=0.1, high=3.0) if op in ("Log", "Sqrt") else rand(2, 3, 4, low=-3.0, high=3.0)
        return Case([node(op, ["x"], ["y"])], {"x": x}, {"y": reference(x.astype(np.float64)).astype(np.float32)})

    return build


for _op, _reference in UNARY.items():
    good("unary_" + _op)(make_unary(_op, _reference))


@good("unary_Not")
def _():
    x = RNG.integers(0, 2, size=(3, 4)).astype(bool)
    return Case([node("Not", ["x"], ["y"])], {"x": x}, {"y": ~x})


@good("unary_LeakyRelu")
def _():
    x = rand(2, 5, low=-2, high=2)
    return Case([node("LeakyRelu", ["x"], ["y"], alpha=0.2)], {"x": x}, {"y": np.where(x < 0, 0.2 * x, x)})


@good("unary_HardSigmoid")
def _():
    x = rand(2, 5, low=-4, high=4)
    return Case([node("HardSigmoid", ["x"], ["y"], alpha=0.25, beta=0.4)], {"x": x},
                {"y": np.clip(0.25 * x + 0.4, 0, 1)})


@good("unary_HardSwish")
def _():
    x = rand(2, 5, low=-4, high=4)
    return Case([node("HardSwish", ["x"], ["y"])], {"x": x}, {"y": x * np.clip(x / 6 + 0.5, 0, 1)})


BINARY = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
    "Equal": np.equal, "Less": np.less, "LessOrEqual": np.less_equal, "Greater": np.greater,
    "GreaterOrEqual": np.greater_equal,
}


def make_binary(op, reference):
    def build():
        a = RNG.integers(-3, 4, size=(2, 3, 4)).astype(np.float32)
        b = RNG.integers(1, 4, size=(3, 1)).astype(np.float32)
        return Case([node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": reference(a, b)})

    return build


for _op, _reference in BINARY.items():
    good("binary_" + _op)(make_binary(_op, _reference))


@good("binary_Pow")
def _():
    a = rand(2, 3, low=0.5, high=2.0)
    return Case([node("Pow", ["a", "e"], ["y"])], {"a": a}, {"y": a ** 3}, {"e": np.array(3, dtype=np.int64)})


@good("binary_Div_int")
def _():
    a = i64(7, -7, 9, 2)
    b = i64(2, 2, -4, 3)
    return Case([node("Div", ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": i64(3, -3, -2, 0)})


LOGIC = {"And": np.logical_and, "Or": np.logical_or, "Xor": np.logical_xor}


def make_logic(op, reference):
    def build():
        a = RNG.integers(0, 2, size=(2, 4)).astype(bool)
        b = RNG.integers(0, 2, size=(4,)).astype(bool)
        return Case([node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": reference(a, b)})

    return build


for _op, _reference in LOGIC.items():
    good("logic_" + _op)(make_logic(_op, _reference))


VARIADIC = {"Max": lambda xs: np.maximum(np.maximum(xs[0], xs[1]), xs[2]),
            "Min": lambda xs: np.minimum(np.minimum(xs[0], xs[1]), xs[2]),
            "Sum": lambda xs: xs[0] + xs[1] + xs[2],
            "Mean": lambda xs: (xs[0] + xs[1] + xs[2]) / 3}


def make_variadic(op, reference):
    def build():
        xs = [rand(2, 3), rand(3), rand(1, 3)]
        return Case([node(op, ["a", "b", "c"], ["y"])], {"a": xs[0], "b": xs[1], "c": xs[2]},
                    {"y": reference(xs).astype(np.float32)})

    return build


for _op, _reference in VARIADIC.items():
    good("variadic_" + _op)(make_variadic(_op, _reference))


@good("clip_inputs")
def _():
    x = rand(3, 4, low=-2, high=2)
    return Case([node("Clip", ["x", "lo", "hi"], ["y"])], {"x": x}, {"y": np.clip(x, -0.5, 0.75)},
                {"lo": np.array(-0.5, np.float32), "hi": np.array(0.75, np.float32)})


@good("clip_max_only")
def _():
    x = rand(3, 4, low=-2, high=2)
    return Case([node("Clip", ["x", "", "hi"], ["y"])], {"x": x}, {"y": np.minimum(x, 0.25)},
                {"hi": np.array(0.25, np.float32)})


@good("clip_attributes")
def _():
    x = rand(3, 4, low=-8, high=8)
    return Case([node("Clip", ["x"], ["y"], min=0.0, max=6.0)], {"x": x}, {"y": np.clip(x, 0, 6)}, opset=11)


@good("clip_runtime_bound")
def _():
    x = rand(3, 4, low=-2, high=2)
    lo = rand(4, low=-1, high=0)
    return Case([node("Clip", ["x", "lo"], ["y"])], {"x": x, "lo": lo}, {"y": np.maximum(x, lo)})


@good("where")
def _():
    c = RNG.integers(0, 2, size=(2, 1, 4)).astype(bool)
    x = rand(3, 4)
    y = rand(2, 3, 1)
    return Case([node("Where", ["c", "x", "y"], ["out"])], {"c": c, "x": x, "y": y}, {"out": np.where(c, x, y)})


@good("cast")
def _():
    x = rand(2, 5, low=-5, high=5)
    return Case([node("Cast", ["x"], ["y"], to=TensorProto.INT64)], {"x": x}, {"y": np.trunc(x).astype(np.int64)})


@good("cast_like")
def _():
    x = i64(1, 2, 3)
    return Case([node("CastLike", ["x", "t"], ["y"])], {"x": x}, {"y": x.astype(np.float32)},
                {"t": np.zeros((1,), np.float32)}, opset=15)


@good("identity_dropout")
def _():
    x = rand(2, 3)
    return Case([node("Identity", ["x"], ["a"]), node("Dropout", ["a", "ratio"], ["y"])], {"x": x}, {"y": x},
                {"ratio": np.array(0.5, np.float32)})


# ----------------------------------------------------------------------------------------------
# good cases: reductions


def make_reduction(op, reference, opset, use_input_axes):
    def build():
        x = rand(2, 3, 4, low=0.5, high=1.5)
        if use_input_axes:
            return Case([node(op, ["x", "axes"], ["y"], keepdims=1)], {"x": x},
                        {"y": reference(x, (0, 2), True)}, {"axes": i64(0, -1)}, opset=opset)
        return Case([node(op, ["x"], ["y"], axes=[0, -1], keepdims=0)], {"x": x}, {"y": reference(x, (0, 2), False)},
                    opset=opset)

    return build


REDUCTIONS = {
    "ReduceSum": (np.sum, True), "ReduceMean": (np.mean, False), "ReduceMax": (np.max, False),
    "ReduceMin": (np.min, False), "ReduceProd": (np.prod, False),
}
for _op, (_function, _input_axes) in REDUCTIONS.items():
    good("reduce_" + _op)(make_reduction(
        _op, lambda x, axes, keep, f=_function: f(x.astype(np.float64), axis=axes, keepdims=keep).astype(np.float32),
        13, _input_axes))


@good("reduce_ReduceL2")
def _():
    x = rand(2, 3, 4)
    return Case([node("ReduceL2", ["x"], ["y"], axes=[1])], {"x": x},
                {"y": np.sqrt((x.astype(np.float64) ** 2).sum(axis=1, keepdims=True)).astype(np.float32)})


@good("reduce_all_axes")
def _():
    x = rand(2, 3)
    return Case([node("ReduceMean", ["x"], ["y"], keepdims=0)], {"x": x}, {"y": np.array(x.mean(), np.float32)})


@good("reduce_noop_empty_axes")
def _():
    x = rand(2, 3)
    return Case([node("ReduceSum", ["x"], ["y"], noop_with_empty_axes=1)], {"x": x}, {"y": x})


@good("argmax")
def _():
    x = rand(3, 5)
    return Case([node("ArgMax", ["x"], ["y"], axis=1, keepdims=0)], {"x": x}, {"y": np.argmax(x, axis=1)})


@good("argmin")
def _():
    x = rand(3, 5)
    return Case([node("ArgMin", ["x"], ["y"], axis=0)], {"x": x}, {"y": np.argmin(x, axis=0)[None, :]})


# ----------------------------------------------------------------------------------------------
# good cases: shapes and layout


@good("reshape_zero_and_minus_one")
def _():
    x = rand(2, 3, 4)
    return Case([node("Reshape", ["x", "shape"], ["y"])], {"x": x}, {"y": x.reshape(2, 12, 1)},
                {"shape": i64(0, -1, 1)})


@good("flatten")
def _():
    x = rand(2, 3, 4, 5)
    return Case([node("Flatten", ["x"], ["y"], axis=2)], {"x": x}, {"y": x.reshape(6, 20)})


@good("flatten_negative_axis")
def _():
    x = rand(2, 3, 4)
    return Case([node("Flatten", ["x"], ["y"], axis=-1)], {"x": x}, {"y": x.reshape(6, 4)})


@good("transpose_perm")
def _():
    x = rand(2, 3, 4)
    return Case([node("Transpose", ["x"], ["y"], perm=[1, 2, 0])], {"x": x}, {"y": x.transpose(1, 2, 0)})


@good("transpose_default")
def _():
    x = rand(2, 3, 4)
    return Case([node("Transpose", ["x"], ["y"])], {"x": x}, {"y": x.transpose()})


@good("squeeze_input_axes")
def _():
    x = rand(1, 3, 1, 4)
    return Case([node("Squeeze", ["x", "axes"], ["y"])], {"x": x}, {"y": x.reshape(3, 1, 4)}, {"axes": i64(0)})


@good("squeeze_attribute_all")
def _():
    x = rand(1, 3, 1, 4)
    return Case([node("Squeeze", ["x"], ["y"])], {"x": x}, {"y": x.reshape(3, 4)}, opset=11)


@good("unsqueeze_input_axes")
def _():
    x = rand(3, 4)
    return Case([node("Unsqueeze", ["x", "axes"], ["y"])], {"x": x}, {"y": x.reshape(1, 3, 4, 1)},
                {"axes": i64(0, -1)})


@good("unsqueeze_attribute")
def _():
    x = rand(3, 4)
    return Case([node("Unsqueeze", ["x"], ["y"], axes=[1])], {"x": x}, {"y": x.reshape(3, 1, 4)}, opset=11)


@good("concat")
def _():
    a, b = rand(2, 3), rand(2, 1)
    return Case([node("Concat", ["a", "b", "c"], ["y"], axis=-1)], {"a": a, "b": b},
                {"y": np.concatenate([a, b, np.ones((2, 2), np.float32)], axis=-1)}, {"c": np.ones((2, 2), np.float32)})


@good("concat_one_input")
def _():
    x = rand(1, 3, 2, 2)
    return Case([node("Concat", ["x"], ["c"], axis=1), node("Relu", ["c"], ["y"])], {"x": x}, {"y": np.maximum(x, 0)})


@good("split_input_sizes")
def _():
    x = rand(2, 6)
    return Case([node("Split", ["x", "sizes"], ["y0", "y1"], axis=1)], {"x": x}, {"y0": x[:, :2], "y1": x[:, 2:]},
                {"sizes": i64(2, 4)})


@good("split_attribute_sizes")
def _():
    x = rand(5, 2)
    return Case([node("Split", ["x"], ["y0", "y1"], split=[3, 2])], {"x": x}, {"y0": x[:3], "y1": x[3:]}, opset=11)


@good("split_equal")
def _():
    x = rand(2, 6)
    return Case([node("Split", ["x"], ["y0", "y1", "y2"], axis=-1)], {"x": x},
                {"y0": x[:, 0:2], "y1": x[:, 2:4], "y2": x[:, 4:6]})


@good("slice")
def _():
    x = rand(4, 6, 5)
    return Case([node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])], {"x": x},
                {"y": x[1:INT64_MAX, ::-2, :]},
                {"starts": i64(1, -1), "ends": i64(INT64_MAX, -INT64_MAX), "axes": i64(0, -2), "steps": i64(1, -2)})


@good("slice_default_axes")
def _():
    x = rand(4, 6)
    return Case([node("Slice", ["x", "starts", "ends"], ["y"])], {"x": x}, {"y": x[1:3, -4:-1]},
                {"starts": i64(1, -4), "ends": i64(3, -1)})


@good("gather")
def _():
    x = rand(3, 4, 2)
    indices = i64(3, -1, 0)
    return Case([node("Gather", ["x", "i"], ["y"], axis=1)], {"x": x}, {"y": np.take(x, [3, 3, 0], axis=1)},
                {"i": indices})


@good("gather_runtime_indices")
def _():
    table = rand(10, 4)
    ids = i64(1, 7, 7, 2).reshape(2, 2)
    return Case([node("Gather", ["table", "ids"], ["y"])], {"ids": ids}, {"y": table[ids]}, {"table": table})


@good("expand")
def _():
    x = rand(3, 1)
    return Case([node("Expand", ["x", "shape"], ["y"])], {"x": x}, {"y": np.broadcast_to(x, (2, 3, 4)).copy()},
                {"shape": i64(2, 1, 4)})


@good("tile")
def _():
    x = rand(2, 3)
    return Case([node("Tile", ["x", "repeats"], ["y"])], {"x": x}, {"y": np.tile(x, (2, 3))}, {"repeats": i64(2, 3)})


@good("shape_size_range_constant_of_shape")
def _():
    # y = x + ConstantOfShape(Shape(x)[1:]) * Size(x) + Range(0, 4, 1) as float
    x = rand(2, 3, 4)
    nodes = [
        node("Shape", ["x"], ["s"], start=1),
        node("ConstantOfShape", ["s"], ["ones"], value=numpy_helper.from_array(np.array([2.0], np.float32))),
        node("Size", ["x"], ["n"]),
        node("Cast", ["n"], ["nf"], to=TensorProto.FLOAT),
        node("Mul", ["ones", "nf"], ["scaled"]),
        node("Range", ["zero", "four", "one"], ["r"]),
        node("Cast", ["r"], ["rf"], to=TensorProto.FLOAT),
        node("Add", ["scaled", "rf"], ["offset"]),
        node("Add", ["x", "offset"], ["y"]),
    ]
    expected = x + 2.0 * 24 + np.arange(4, dtype=np.float32)
    return Case(nodes, {"x": x}, {"y": expected},
                {"zero": np.array(0, np.int64), "four": np.array(4, np.int64), "one": np.array(1, np.int64)}, opset=15)


@good("range_negative_step_and_float")
def _():
    x = rand(3)
    nodes = [node("Range", ["five", "zero", "minus_two"], ["ri"], name="int_range"),
             node("Range", ["half", "two", "half"], ["rf"], name="float_range"),
             node("Add", ["x", "rf"], ["y"], name="add")]
    return Case(nodes, {"x": x}, {"ri": np.array([5, 3, 1], np.int32), "y": x + np.array([0.5, 1.0, 1.5], np.float32)},
                {"five": np.array(5, np.int32), "zero": np.array(0, np.int32), "minus_two": np.array(-2, np.int32),
                 "half": np.array(0.5, np.float32), "two": np.array(2.0, np.float32)})


@good("constants")
def _():
    x = rand(3)
    nodes = [
        node("Constant", [], ["c1"], name="c1", value=numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32))),
        node("Constant", [], ["c2"], name="c2", value_float=0.5),
        node("Constant", [], ["c3"], name="c3", value_floats=[1.0, 1.0, 2.0]),
        node("Add", ["x", "c1"], ["a"], name="a"),
        node("Mul", ["a", "c2"], ["b"], name="b"),
        node("Sub", ["b", "c3"], ["y"], name="y"),
    ]
    return Case(nodes, {"x": x}, {"y": (x + [1, 2, 3]) * 0.5 - [1, 1, 2]})


# --- shape computations the way torch.onnx.export emits them


@good("fold_view_batch_minus_one")
def _():
    # x.view(x.size(0), -1)
    x = rand(2, 3, 4)
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Gather", ["shape", "zero"], ["batch"], name="gather", axis=0),
        node("Unsqueeze", ["batch", "axes0"], ["batch1"], name="unsqueeze"),
        node("Concat", ["batch1", "minus_one"], ["target"], name="concat", axis=0),
        node("Reshape", ["x", "target"], ["y"], name="reshape"),
    ]
    return Case(nodes, {"x": x}, {"y": x.reshape(2, 12)},
                {"zero": np.array(0, np.int64), "axes0": i64(0), "minus_one": i64(-1)})


@good("fold_split_heads")
def _():
    # q.view(b, t, heads, hidden // heads) with b, t, hidden from Shape and integer Div
    x = rand(1, 5, 8)
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Slice", ["shape", "s0", "s2", "s_axes"], ["bt"], name="slice"),
        node("Gather", ["shape", "two"], ["hidden"], name="gather_hidden", axis=0),
        node("Div", ["hidden", "heads"], ["head_size"], name="div"),
        node("Unsqueeze", ["head_size", "axes0"], ["head_size1"], name="unsqueeze"),
        node("Concat", ["bt", "heads1", "head_size1"], ["target"], name="concat", axis=0),
        node("Reshape", ["x", "target"], ["r"], name="reshape"),
        node("Transpose", ["r"], ["y"], name="transpose", perm=[0, 2, 1, 3]),
    ]
    return Case(nodes, {"x": x}, {"y": x.reshape(1, 5, 2, 4).transpose(0, 2, 1, 3)},
                {"s0": i64(0), "s2": i64(2), "s_axes": i64(0), "two": np.array(2, np.int64),
                 "heads": np.array(2, np.int64), "heads1": i64(2), "axes0": i64(0)})


@good("fold_class_token_expand")
def _():
    # torchvision ViT: class_token.expand(n, -1, -1) exported at opset 14
    x = rand(3, 4, 8)
    token = rand(1, 1, 8)
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Gather", ["shape", "zero"], ["n"], name="gather", axis=0),
        node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsqueeze"),
        node("Concat", ["n1", "minus_ones"], ["requested"], name="concat", axis=0),
        node("Shape", ["requested"], ["requested_shape"], name="shape2"),
        node("ConstantOfShape", ["requested_shape"], ["ones"], name="ones",
             value=numpy_helper.from_array(np.array([1], np.int64))),
        node("Mul", ["ones", "minus_one"], ["minus_ones_again"], name="mul"),
        node("Equal", ["requested", "minus_ones_again"], ["is_minus_one"], name="equal"),
        node("Where", ["is_minus_one", "ones", "requested"], ["target"], name="where"),
        node("Expand", ["token", "target"], ["tokens"], name="expand"),
        node("Concat", ["tokens", "x"], ["y"], name="concat_tokens", axis=1),
    ]
    return Case(nodes, {"x": x}, {"y": np.concatenate([np.broadcast_to(token, (3, 1, 8)), x], axis=1)},
                {"token": token, "zero": np.array(0, np.int64), "axes0": i64(0), "minus_ones": i64(-1, -1),
                 "minus_one": np.array(-1, np.int64)})


@good("fold_causal_mask")
def _():
    # positions = arange(t); mask = positions[None, :] > positions[:, None]; scores.masked_fill(mask, -inf)
    x = rand(1, 2, 4, 4)
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Gather", ["shape", "three"], ["t"], name="gather", axis=0),
        node("Range", ["zero", "t", "one"], ["positions"], name="range"),
        node("Unsqueeze", ["positions", "axes0"], ["row"], name="row"),
        node("Unsqueeze", ["positions", "axes1"], ["column"], name="column"),
        node("Greater", ["row", "column"], ["future"], name="greater"),
        node("Where", ["future", "minus_inf", "x"], ["masked"], name="where"),
        node("Softmax", ["masked"], ["y"], name="softmax", axis=-1),
    ]
    mask = np.arange(4)[None, :] > np.arange(4)[:, None]
    masked = np.where(mask, -np.inf, x)
    return Case(nodes, {"x": x}, {"y": softmax(masked, -1).astype(np.float32)},
                {"three": np.array(3, np.int64), "zero": np.array(0, np.int64), "one": np.array(1, np.int64),
                 "axes0": i64(0), "axes1": i64(1), "minus_inf": np.array(-np.inf, np.float32)})


@good("fold_float_shape_arithmetic")
def _():
    # torch's int(x.size(2) * 0.5) for an interpolate size: Shape, Gather, Cast, Mul, Floor, Cast, Concat
    x = rand(1, 2, 4, 6)
    nodes = [
        node("Shape", ["x"], ["shape"], name="shape"),
        node("Slice", ["shape", "s2", "s4"], ["hw"], name="slice"),
        node("Cast", ["hw"], ["hw_float"], name="cast", to=TensorProto.FLOAT),
        node("Mul", ["hw_float", "half"], ["scaled"], name="mul"),
        node("Floor", ["scaled"], ["floored"], name="floor"),
        node("Cast", ["floored"], ["hw_int"], name="cast_back", to=TensorProto.INT64),
        node("Concat", ["nc", "hw_int"], ["sizes"], name="concat", axis=0),
        node("Resize", ["x", "", "", "sizes"], ["y"], name="resize", mode="nearest",
             coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    ]
    return Case(nodes, {"x": x}, {"y": resize2d(x, (2, 3), "nearest", "asymmetric", "floor")},
                {"s2": i64(2), "s4": i64(4), "half": np.array(0.5, np.float32), "nc": i64(1, 2)})


# ----------------------------------------------------------------------------------------------
# good cases: neural-network ops


@good("conv_bias_pads")
def _():
    x, w, b = rand(1, 3, 6, 7), rand(4, 3, 3, 3), rand(4)
    return Case([node("Conv", ["x", "w", "b"], ["y"], pads=[1, 0, 2, 1])], {"x": x},
                {"y": conv2d(x, w, b, pads=(1, 0, 2, 1))}, {"w": w, "b": b})


@good("conv_groups_dilation_strides")
def _():
    x, w = rand(2, 4, 9, 9), rand(6, 2, 3, 3)
    return Case([node("Conv", ["x", "w"], ["y"], group=2, dilations=[2, 1], strides=[2, 2], kernel_shape=[3, 3])],
                {"x": x}, {"y": conv2d(x, w, strides=(2, 2), dilations=(2, 1), group=2)}, {"w": w})


@good("conv_depthwise")
def _():
    x, w = rand(1, 3, 5, 5), rand(3, 1, 3, 3)
    return Case([node("Conv", ["x", "w"], ["y"], group=3, pads=[1, 1, 1, 1])], {"x": x},
                {"y": conv2d(x, w, pads=(1, 1, 1, 1), group=3)}, {"w": w})


@good("conv_same_upper")
def _():
    x, w = rand(1, 2, 7, 6), rand(3, 2, 4, 3)
    # output = ceil(in / stride) = (4, 3); total pads (4-1)*2+4-7 = 3 -> 1, 2 and (3-1)*2+3-6 = 1 -> 0, 1
    return Case([node("Conv", ["x", "w"], ["y"], auto_pad="SAME_UPPER", strides=[2, 2])], {"x": x},
                {"y": conv2d(x, w, strides=(2, 2), pads=(1, 0, 2, 1))}, {"w": w})


@good("conv_same_lower")
def _():
    x, w = rand(1, 2, 5, 5), rand(2, 2, 2, 2)
    return Case([node("Conv", ["x", "w"], ["y"], auto_pad="SAME_LOWER")], {"x": x},
                {"y": conv2d(x, w, pads=(1, 1, 0, 0))}, {"w": w})


@good("conv_valid")
def _():
    x, w = rand(1, 2, 5, 5), rand(2, 2, 3, 3)
    return Case([node("Conv", ["x", "w"], ["y"], auto_pad="VALID")], {"x": x}, {"y": conv2d(x, w)}, {"w": w})


@good("conv_transpose")
def _():
    x, w, b = rand(1, 3, 4, 5), rand(3, 2, 4, 4), rand(2)
    return Case([node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])], {"x": x},
                {"y": conv_transpose2d(x, w, b, strides=(2, 2), pads=(1, 1, 1, 1))}, {"w": w, "b": b})


@good("conv_transpose_groups_output_padding")
def _():
    x, w = rand(1, 4, 3, 3), rand(4, 3, 3, 3)
    return Case([node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], group=2, output_padding=[1, 0],
                      dilations=[1, 2])], {"x": x},
                {"y": conv_transpose2d(x, w, strides=(2, 2), output_padding=(1, 0), dilations=(1, 2), group=2)},
                {"w": w})


@good("conv_transpose_output_shape")
def _():
    x, w = rand(1, 2, 3, 3), rand(2, 2, 3, 3)
    # full extent (3-1)*2+3 = 7, requested 6: total padding 1 -> begin 1, end 0 (spec: NOTSET puts the odd pad first)
    return Case([node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_shape=[6, 6])], {"x": x},
                {"y": conv_transpose2d(x, w, strides=(2, 2), pads=(1, 1, 0, 0))}, {"w": w})


@good("gemm_transposes_alpha_beta")
def _():
    a, b, c = rand(4, 3), rand(5, 4), rand(5)
    return Case([node("Gemm", ["a", "b", "c"], ["y"], transA=1, transB=1, alpha=0.5, beta=2.0)], {"a": a},
                {"y": 0.5 * a.T @ b.T + 2.0 * c}, {"b": b, "c": c})


@good("gemm_matrix_bias")
def _():
    a, b, c = rand(2, 3), rand(3, 4), rand(2, 4)
    return Case([node("Gemm", ["a", "b", "c"], ["y"])], {"a": a}, {"y": a @ b + c}, {"b": b, "c": c})


@good("gemm_runtime_weight")
def _():
    a, b = rand(2, 3), rand(3, 4)
    return Case([node("Gemm", ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": a @ b})


@good("matmul_constant_weight")
def _():
    a, w = rand(2, 5, 3), rand(3, 4)
    return Case([node("MatMul", ["a", "w"], ["y"])], {"a": a}, {"y": a @ w}, {"w": w})


@good("matmul_broadcast_batch")
def _():
    a, b = rand(2, 1, 3, 4), rand(5, 4, 6)
    return Case([node("MatMul", ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": np.matmul(a, b)})


@good("matmul_vector")
def _():
    a, b = rand(4), rand(2, 4, 3)
    return Case([node("MatMul", ["a", "b"], ["y"])], {"a": a, "b": b}, {"y": np.matmul(a, b)})


@good("batch_norm")
def _():
    x = rand(2, 3, 4, 4)
    scale, bias, mean, var = rand(3), rand(3), rand(3), rand(3, low=0.5, high=1.5)
    per_channel = (slice(None), None, None)
    expected = (x - mean[per_channel]) / np.sqrt(var[per_channel] + 1e-3) * scale[per_channel] + bias[per_channel]
    return Case([node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"], epsilon=1e-3)], {"x": x},
                {"y": expected.astype(np.float32)}, {"scale": scale, "bias": bias, "mean": mean, "var": var})


@good("layer_norm")
def _():
    x, gamma, beta = rand(2, 3, 8), rand(8), rand(8)
    return Case([node("LayerNormalization", ["x", "gamma", "beta"], ["y"], epsilon=1e-5)], {"x": x},
                {"y": layer_norm(x, gamma, beta, -1, 1e-5)}, {"gamma": gamma, "beta": beta}, opset=17)


@good("layer_norm_two_axes_no_bias")
def _():
    x, gamma = rand(2, 3, 4), rand(3, 4)
    return Case([node("LayerNormalization", ["x", "gamma"], ["y"], axis=1, epsilon=1e-3)], {"x": x},
                {"y": layer_norm(x, gamma, 0.0, 1, 1e-3)}, {"gamma": gamma}, opset=17)


@good("layer_norm_decomposed")
def _():
    # torch's layer_norm export before opset 17
    x, gamma, beta = rand(2, 4, 6), rand(6), rand(6)
    nodes = [
        node("ReduceMean", ["x"], ["mean"], name="mean", axes=[-1]),
        node("Sub", ["x", "mean"], ["centered"], name="sub"),
        node("Pow", ["centered", "two"], ["squared"], name="pow"),
        node("ReduceMean", ["squared"], ["variance"], name="variance", axes=[-1]),
        node("Add", ["variance", "epsilon"], ["shifted"], name="add_eps"),
        node("Sqrt", ["shifted"], ["deviation"], name="sqrt"),
        node("Div", ["centered", "deviation"], ["normalized"], name="div"),
        node("Mul", ["normalized", "gamma"], ["scaled"], name="mul"),
        node("Add", ["scaled", "beta"], ["y"], name="add"),
    ]
    return Case(nodes, {"x": x}, {"y": layer_norm(x, gamma, beta, -1, 1e-5)},
                {"two": np.array(2.0, np.float32), "epsilon": np.array(1e-5, np.float32), "gamma": gamma, "beta": beta})


@good("softmax_opset13_axis1")
def _():
    x = rand(2, 3, 4, low=-3, high=3)
    return Case([node("Softmax", ["x"], ["y"], axis=1)], {"x": x}, {"y": softmax(x, 1).astype(np.float32)})


@good("softmax_opset11_coerced")
def _():
    x = rand(2, 3, 4, low=-3, high=3)
    expected = softmax(x.reshape(2, 12), 1).reshape(2, 3, 4)
    return Case([node("Softmax", ["x"], ["y"], axis=1)], {"x": x}, {"y": expected.astype(np.float32)}, opset=11)


@good("log_softmax_opset11_default")
def _():
    x = rand(2, 5, low=-3, high=3)
    return Case([node("LogSoftmax", ["x"], ["y"])], {"x": x}, {"y": np.log(softmax(x, 1)).astype(np.float32)}, opset=11)


@good("max_pool_ceil_pads")
def _():
    x = rand(1, 2, 7, 6)
    return Case([node("MaxPool", ["x"], ["y"], kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0], ceil_mode=1)],
                {"x": x}, {"y": pool2d(x, "max", (3, 2), (2, 2), (1, 0, 1, 0), ceil_mode=1)})


@good("max_pool_dilation")
def _():
    x = rand(1, 1, 7, 7)
    return Case([node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], dilations=[2, 2], strides=[1, 1])],
                {"x": x}, {"y": pool2d(x, "max", (2, 2), dilations=(2, 2))}, opset=12)


@good("avg_pool_count_include_pad")
def _():
    x = rand(1, 2, 5, 5)
    return Case([node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                      count_include_pad=1)], {"x": x},
                {"y": pool2d(x, "avg", (3, 3), (2, 2), (1, 1, 1, 1), count_include_pad=1)})


@good("avg_pool_exclude_pad_ceil")
def _():
    x = rand(1, 2, 6, 6)
    return Case([node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                      ceil_mode=1)], {"x": x}, {"y": pool2d(x, "avg", (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=1)})


@good("global_pools")
def _():
    x = rand(2, 3, 4, 5)
    nodes = [node("GlobalAveragePool", ["x"], ["avg"]), node("GlobalMaxPool", ["x"], ["max"])]
    return Case(nodes, {"x": x}, {"avg": x.mean(axis=(2, 3), keepdims=True), "max": x.max(axis=(2, 3), keepdims=True)})


@good("pad_constant")
def _():
    x = rand(1, 2, 3, 3)
    pads = (0, 0, 1, 2, 0, 0, 2, 0)
    return Case([node("Pad", ["x", "pads", "value"], ["y"])], {"x": x},
                {"y": np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 0)), constant_values=0.5)},
                {"pads": i64(*pads), "value": np.array(0.5, np.float32)})


@good("pad_reflect")
def _():
    x = rand(1, 1, 4, 4)
    return Case([node("Pad", ["x", "pads"], ["y"], mode="reflect")], {"x": x},
                {"y": np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), mode="reflect")},
                {"pads": i64(0, 0, 1, 2, 0, 0, 2, 1)})


@good("pad_edge")
def _():
    x = rand(2, 3)
    return Case([node("Pad", ["x", "pads"], ["y"], mode="edge")], {"x": x},
                {"y": np.pad(x, ((1, 0), (0, 2)), mode="edge")}, {"pads": i64(1, 0, 0, 2)})


@good("resize_nearest_scales")
def _():
    x = rand(1, 2, 3, 4)
    return Case([node("Resize", ["x", "", "scales"], ["y"], mode="nearest", coordinate_transformation_mode="asymmetric",
                      nearest_mode="floor")], {"x": x},
                {"y": resize2d(x, (6, 8), "nearest", "asymmetric", "floor")},
                {"scales": np.array([1, 1, 2, 2], np.float32)})


@good("resize_linear_sizes")
def _():
    x = rand(1, 2, 4, 4)
    return Case([node("Resize", ["x", "roi", "scales", "sizes"], ["y"], mode="linear")], {"x": x},
                {"y": resize2d(x, (6, 3), "linear", "half_pixel")},
                {"roi": np.zeros((0,), np.float32), "scales": np.zeros((0,), np.float32), "sizes": i64(1, 2, 6, 3)})


@good("resize_linear_align_corners")
def _():
    x = rand(1, 1, 3, 3)
    return Case([node("Resize", ["x", "", "scales"], ["y"], mode="linear",
                      coordinate_transformation_mode="align_corners")],
                {"x": x}, {"y": resize2d(x, (6, 6), "linear", "align_corners")},
                {"scales": np.array([1, 1, 2, 2], np.float32)})


@good("typed_field_initializers")
def _():
    # initializers in float_data, double_data, int32_data (FLOAT16 bits, BOOL) and int64_data
    x = rand(3)
    initializers = {
        "w": helper.make_tensor("w", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0]),
        "d": helper.make_tensor("d", TensorProto.DOUBLE, [3], [0.5, 0.25, 0.125]),
        "h": helper.make_tensor("h", TensorProto.FLOAT16, [3], [1.5, -2.0, 0.25]),
        "b": helper.make_tensor("b", TensorProto.BOOL, [3], [True, False, True]),
        "i": helper.make_tensor("i", TensorProto.INT64, [2], [2, 0]),
    }
    nodes = [
        node("Cast", ["d"], ["d32"], name="cast_d", to=TensorProto.FLOAT),
        node("Cast", ["h"], ["h32"], name="cast_h", to=TensorProto.FLOAT),
        node("Add", ["x", "w"], ["a"], name="add_w"),
        node("Add", ["a", "d32"], ["a2"], name="add_d"),
        node("Add", ["a2", "h32"], ["a3"], name="add_h"),
        node("Where", ["b", "a3", "x"], ["selected"], name="where"),
        node("Gather", ["selected", "i"], ["y"], name="gather"),
    ]
    selected = np.where([True, False, True], x + [1.0, 2.0, 3.0] + [0.5, 0.25, 0.125] + [1.5, -2.0, 0.25], x)
    return Case(nodes, {"x": x}, {"y": selected[[2, 0]]}, initializers)


@good("double_kept")
def _():
    # DOUBLE inputs and initializers compute in float64: 1e300 is beyond float32's range
    x = np.array([1e290, -2.5e-300, 3.0])
    case = Case([node("Mul", ["x", "s"], ["y"], name="scale")], {}, {},
                {"s": helper.make_tensor("s", TensorProto.DOUBLE, [1], [1e10])})
    case.inputs = {"x": x}
    case.outputs = {"y": x * 1e10}
    return case


@good("resize_fractional_scale")
def _():
    # scale 1.7 on 3 columns gives floor(5.1) = 5, and asymmetric coordinates x / 1.7 (not x * 3 / 5)
    x = rand(1, 1, 2, 3)
    columns = np.minimum(np.arange(5) / 1.7, 2.0)
    left = np.floor(columns).astype(int)
    right = np.minimum(left + 1, 2)
    fraction = columns - left
    y = x[:, :, :, left] * (1 - fraction) + x[:, :, :, right] * fraction
    return Case([node("Resize", ["x", "", "scales"], ["y"], mode="linear", coordinate_transformation_mode="asymmetric")],
                {"x": x}, {"y": y}, {"scales": np.array([1, 1, 1, 1.7], np.float32)})


@good("upsample_nearest")
def _():
    x = rand(1, 2, 2, 3)
    y = x.repeat(2, axis=2).repeat(3, axis=3)
    return Case([node("Upsample", ["x", "scales"], ["y"], mode="nearest")], {"x": x}, {"y": y},
                {"scales": np.array([1, 1, 2, 3], np.float32)}, opset=9)


@good("bit_shift")
def _():
    x = np.array([[1, 200], [65535, 7]], np.uint16)
    left = node("BitShift", ["x", "amount"], ["left"], name="left", direction="LEFT")
    right = node("BitShift", ["x", "amount"], ["right"], name="right", direction="RIGHT")
    amount = np.array([3, 1], np.uint16)
    return Case([left, right], {"x": x}, {"left": (x << amount).astype(np.uint16), "right": x >> amount},
                {"amount": amount})


@good("window_functions")
def _():
    # periodic Hann (period 5) and symmetric Blackman (period 4) as f64
    n = np.arange(5)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * n / 5)
    blackman = 0.42 - 0.5 * np.cos(2 * np.pi * n / 4) + 0.08 * np.cos(4 * np.pi * n / 4)
    nodes = [node("HannWindow", ["size"], ["hann"], name="hann"),
             node("BlackmanWindow", ["size"], ["blackman"], name="blackman", periodic=0,
                  output_datatype=TensorProto.DOUBLE)]
    case = Case(nodes, {}, {"hann": hann.astype(np.float32)}, {"size": np.array(5, np.int64)}, opset=17)
    case.outputs["blackman"] = blackman
    return case


@good("compress_nonzero_unique")
def _():
    # Compress of run-time data by a constant condition; NonZero and Unique of constants
    x = rand(3, 4)
    values = np.array([[2, 0, 2], [1, 1, 0], [2, 0, 2]], np.int64)
    nodes = [node("Compress", ["x", "keep"], ["kept"], name="compress", axis=1),
             node("NonZero", ["values"], ["nonzero"], name="nonzero"),
             node("Unique", ["values"], ["unique", "indices", "inverse", "counts"], name="unique", axis=0, sorted=1)]
    unique, indices, inverse, counts = np.unique(values, axis=0, return_index=True, return_inverse=True,
                                                 return_counts=True)
    return Case(nodes, {"x": x},
                {"kept": x[:, [0, 2]], "nonzero": np.array(np.nonzero(values)), "unique": unique,
                 "indices": indices, "inverse": inverse.reshape(-1), "counts": counts},
                {"keep": np.array([True, False, True]), "values": values}, opset=13)


def recurrent_reference(kind, x, w, r, b, h0, c0=None, p=None, reverse=False, linear_before_reset=False,
                        lengths=None):
    """One direction of ONNX RNN / GRU / LSTM in float64; x is [seq, batch, input]; returns Y [seq, batch,
    hidden] and the last H (and C)."""
    sigmoid = lambda v: 1 / (1 + np.exp(-v))
    hidden = r.shape[1]
    gates = w.shape[0] // hidden
    wb, rb = (b[:gates * hidden], b[gates * hidden:]) if b is not None else (np.zeros(gates * hidden),) * 2
    block = lambda m, g: m[g * hidden:(g + 1) * hidden]
    h, c = h0.astype(np.float64), (c0.astype(np.float64) if c0 is not None else None)
    ys = np.zeros((x.shape[0], x.shape[1], hidden))
    order = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
    for t in order:
        xt = x[t].astype(np.float64)
        pre = lambda g, state: xt @ block(w, g).T + state @ block(r, g).T + block(wb, g) + block(rb, g)
        if kind == "RNN":
            new_h, new_c = np.tanh(pre(0, h)), None
        elif kind == "GRU":
            z, reset = sigmoid(pre(0, h)), sigmoid(pre(1, h))
            if linear_before_reset:
                candidate = np.tanh(xt @ block(w, 2).T + block(wb, 2) + reset * (h @ block(r, 2).T + block(rb, 2)))
            else:
                candidate = np.tanh(xt @ block(w, 2).T + block(wb, 2) + (reset * h) @ block(r, 2).T + block(rb, 2))
            new_h, new_c = (1 - z) * candidate + z * h, None
        else:
            peep = (lambda g: block(p, g)) if p is not None else (lambda g: 0)
            i = sigmoid(pre(0, h) + peep(0) * c)
            f = sigmoid(pre(2, h) + peep(2) * c)
            new_c = f * c + i * np.tanh(pre(3, h))
            o = sigmoid(pre(1, h) + peep(1) * new_c)
            new_h = o * np.tanh(new_c)
        running = np.ones((x.shape[1], 1), bool) if lengths is None else (t < lengths)[:, None]
        ys[t] = np.where(running, new_h, 0)
        h = np.where(running, new_h, h)
        if c is not None:
            c = np.where(running, new_c, c)
    return ys, h, c


@good("rnn_reverse_initial_state")
def _():
    seq, batch, size, hidden = 3, 2, 4, 5
    x, w, r, b, h0 = rand(seq, batch, size), rand(1, hidden, size), rand(1, hidden, hidden), rand(1, 2 * hidden), \
        rand(1, batch, hidden)
    ys, h, _ = recurrent_reference("RNN", x, w[0], r[0], b[0], h0[0], reverse=True)
    return Case([node("RNN", ["x", "w", "r", "b", "", "h0"], ["y", "y_h"], hidden_size=hidden, direction="reverse")],
                {"x": x, "h0": h0}, {"y": ys[:, None], "y_h": h[None]}, {"w": w, "r": r, "b": b}, opset=14)


@good("gru_bidirectional_linear_before_reset")
def _():
    seq, batch, size, hidden = 2, 3, 2, 4
    x, w, r, b = rand(seq, batch, size), rand(2, 3 * hidden, size), rand(2, 3 * hidden, hidden), rand(2, 6 * hidden)
    zeros = np.zeros((batch, hidden))
    forward = recurrent_reference("GRU", x, w[0], r[0], b[0], zeros, linear_before_reset=True)
    backward = recurrent_reference("GRU", x, w[1], r[1], b[1], zeros, reverse=True, linear_before_reset=True)
    return Case([node("GRU", ["x", "w", "r", "b"], ["y", "y_h"], hidden_size=hidden, direction="bidirectional",
                      linear_before_reset=1)],
                {"x": x}, {"y": np.stack([forward[0], backward[0]], axis=1), "y_h": np.stack([forward[1], backward[1]])},
                {"w": w, "r": r, "b": b}, opset=14)


@good("lstm_batch_major_peepholes_lengths")
def _():
    # layout 1 (batch first), peepholes, initial states and sequence lengths 3 and 1
    seq, batch, size, hidden = 3, 2, 3, 2
    x, w, r, b = rand(batch, seq, size), rand(1, 4 * hidden, size), rand(1, 4 * hidden, hidden), rand(1, 8 * hidden)
    h0, c0, p = rand(batch, 1, hidden), rand(batch, 1, hidden), rand(1, 3 * hidden)
    lengths = np.array([3, 1], np.int32)
    ys, h, c = recurrent_reference("LSTM", x.transpose(1, 0, 2), w[0], r[0], b[0], h0[:, 0], c0[:, 0], p[0],
                                   lengths=lengths)
    return Case([node("LSTM", ["x", "w", "r", "b", "lengths", "h0", "c0", "p"], ["y", "y_h", "y_c"],
                      hidden_size=hidden, layout=1)],
                {"x": x, "h0": h0, "c0": c0},
                {"y": ys.transpose(1, 0, 2)[:, :, None], "y_h": h[:, None], "y_c": c[:, None]},
                {"w": w, "r": r, "b": b, "p": p, "lengths": lengths}, opset=14)


@good("integer_products")
def _():
    # MatMulInteger with a per-column B zero point; ConvInteger (pads, stride 2, dilation 2,
    # per-output-channel w zero points), compared exactly
    rng = np.random.default_rng(7)
    a = rng.integers(0, 256, (3, 4), dtype=np.uint8)
    b = rng.integers(0, 256, (4, 2), dtype=np.uint8)
    a_zero, b_zero = np.array(3, np.uint8), np.array([5, 250], np.uint8)
    product = (a.astype(np.int64) - 3) @ (b.astype(np.int64) - b_zero.astype(np.int64))
    x = rng.integers(-128, 128, (1, 2, 5, 6), dtype=np.int8)
    w = rng.integers(-128, 128, (3, 2, 2, 2), dtype=np.int8)
    x_zero, w_zero = np.array(-7, np.int8), np.array([1, -2, 3], np.int8)
    xc = np.pad(x.astype(np.int64) - (-7), ((0, 0), (0, 0), (1, 0), (0, 1)))
    wc = w.astype(np.int64) - w_zero.astype(np.int64)[:, None, None, None]
    oh, ow = (xc.shape[2] - 3) // 2 + 1, (xc.shape[3] - 3) // 2 + 1
    conv = np.zeros((1, 3, oh, ow), np.int64)
    for ky in range(2):
        for kx in range(2):
            patch = xc[:, :, 2 * ky:2 * ky + 2 * (oh - 1) + 1:2, 2 * kx:2 * kx + 2 * (ow - 1) + 1:2]
            conv += np.einsum("nchw,mc->nmhw", patch, wc[:, :, ky, kx])
    nodes = [node("MatMulInteger", ["a", "b", "a_zero", "b_zero"], ["product"], name="matmul"),
             node("ConvInteger", ["x", "w", "x_zero", "w_zero"], ["conv"], name="conv", pads=[1, 0, 0, 1],
                  strides=[2, 2], dilations=[2, 2])]
    return Case(nodes, {"a": a, "x": x}, {"product": product.astype(np.int32), "conv": conv.astype(np.int32)},
                {"b": b, "a_zero": a_zero, "b_zero": b_zero, "w": w, "x_zero": x_zero, "w_zero": w_zero}, opset=10)


@good("qlinear_matmul")
def _():
    rng = np.random.default_rng(8)
    a = rng.integers(0, 256, (2, 3, 4), dtype=np.uint8)
    b = rng.integers(0, 256, (2, 4, 5), dtype=np.uint8)
    accumulated = (a.astype(np.int64) - 100) @ (b.astype(np.int64) - 120)
    real = accumulated.astype(np.float32) * (np.float32(0.02) * np.float32(0.03)) / np.float32(0.5)
    y = np.clip(np.round(real) + 128, 0, 255).astype(np.uint8)
    names = ["a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "y_scale", "y_zero"]
    return Case([node("QLinearMatMul", names, ["y"], name="qmatmul")], {"a": a}, {"y": y},
                {"a_scale": np.array(0.02, np.float32), "a_zero": np.array(100, np.uint8), "b": b,
                 "b_scale": np.array(0.03, np.float32), "b_zero": np.array(120, np.uint8),
                 "y_scale": np.array(0.5, np.float32), "y_zero": np.array(128, np.uint8)}, opset=10)


@good("reverse_sequence")
def _():
    x = rand(4, 3, 2)  # time, batch, features
    lengths = np.array([4, 1, 3], np.int64)
    y = x.copy()
    for b, length in enumerate(lengths):
        y[:length, b] = x[:length, b][::-1]
    return Case([node("ReverseSequence", ["x", "lengths"], ["y"], time_axis=0, batch_axis=1)], {"x": x}, {"y": y},
                {"lengths": lengths}, opset=10)


@good("non_max_suppression")
def _():
    # corner boxes given in either corner order; box 1 overlaps box 0 (IoU 0.81) and is
    # suppressed, box 3 scores below the threshold, class 1 keeps at most two boxes
    boxes = np.array([[[0, 0, 1, 1], [1, 1, 0.1, 0.1], [0, 2, 1, 3], [5, 5, 6, 6]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.7, 0.1], [0.2, 0.3, 0.6, 0.5]]], np.float32)
    selected = np.array([[0, 0, 0], [0, 0, 2], [0, 1, 2], [0, 1, 3]], np.int64)
    return Case([node("NonMaxSuppression", ["boxes", "scores", "max_boxes", "iou", "score_min"], ["selected"])], {},
                {"selected": selected},
                {"boxes": boxes, "scores": scores, "max_boxes": np.array([2], np.int64),
                 "iou": np.array([0.5], np.float32), "score_min": np.array([0.15], np.float32)}, opset=11)


@good("dft_one_sided_padded")
def _():
    # a one-sided transform of real signals zero-padded from 5 to 8 samples along axis 2
    x = rand(2, 3, 5, 1)
    spectrum = np.fft.rfft(x[..., 0].astype(np.float64), n=8, axis=2)
    y = np.stack([spectrum.real, spectrum.imag], axis=-1)
    return Case([node("DFT", ["x", "length"], ["y"], axis=2, onesided=1)], {"x": x}, {"y": y},
                {"length": np.array(8, np.int64)}, opset=17)


@good("dead_unsupported_node_ignored")
def _():
    # a node no output depends on is not converted, even with an unknown op
    x = rand(2, 2)
    return Case([node("Relu", ["x"], ["y"], name="relu"), node("NoSuchOp", ["x"], ["unused"], name="dead")], {"x": x},
                {"y": np.maximum(x, 0)})


@good("unsorted_nodes")
def _():
    # nodes listed out of topological order
    x = rand(2, 2)
    return Case([node("Neg", ["a"], ["y"], name="second"), node("Relu", ["x"], ["a"], name="first")], {"x": x},
                {"y": -np.maximum(x, 0)})


@good("initializer_listed_as_input")
def _():
    x, w = rand(2, 3), rand(3)
    case = Case([node("Add", ["x", "w"], ["y"])], {"x": x, "w": w}, {"y": x + w}, {"w": w})
    case.inputs_without_data = ["w"]
    return case


@good("initializer_default_of_input")
def _():
    # IR version 4 and later: the initializer is the default value of the graph input 'w'
    x, w = rand(2, 3), rand(3)
    case = Case([node("Add", ["x", "w"], ["y"])], {"x": x, "w": w}, {"y": x + w}, {"w": w})
    case.inputs_without_data = ["w"]
    case.ir_version = 7
    return case


@good("dynamic_batch_override")
def _():
    # the model declares a symbolic batch; the test gives --input-shape x=2x3
    x = rand(2, 3)
    case = Case([node("Relu", ["x"], ["y"])], {"x": x}, {"y": np.maximum(x, 0)})
    case.symbolic_first_dim = True
    return case


# ----------------------------------------------------------------------------------------------
# bad cases (each returns a ModelProto or raw bytes)


def simple_model(nodes, inputs, outputs, initializers=(), opset=13, opsets=None):
    graph = helper.make_graph(nodes, "bad", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=opsets or [helper.make_opsetid("", opset)])


def fvi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def relu_model(opset=13):
    return simple_model([node("Relu", ["x"], ["y"], name="relu")], [fvi("x", [2, 3])], [fvi("y", [2, 3])], opset=opset)


@bad("truncated")
def _():
    data = relu_model().SerializeToString()
    return data[:len(data) // 2]


@bad("garbage")
def _():
    return b"\xff\xff\xff\xff\x0f\x00garbage"


@bad("empty")
def _():
    return b""


@bad("unknown_op")
def _():
    return simple_model([node("FooBar", ["x"], ["y"], name="foo")], [fvi("x", [2])], [fvi("y", [2])])


@bad("custom_domain")
def _():
    n = helper.make_node("FusedConv", ["x"], ["y"], name="fused", domain="com.microsoft")
    return simple_model([n], [fvi("x", [2])], [fvi("y", [2])],
                        opsets=[helper.make_opsetid("", 13), helper.make_opsetid("com.microsoft", 1)])


@bad("opset_too_old")
def _():
    return relu_model(opset=0)


@bad("opset_too_new")
def _():
    return relu_model(opset=18)


@bad("no_default_opset")
def _():
    return simple_model([node("Relu", ["x"], ["y"])], [fvi("x", [2])], [fvi("y", [2])],
                        opsets=[helper.make_opsetid("com.example", 1)])


@bad("missing_input")
def _():
    return simple_model([node("Add", ["x", "nowhere"], ["y"], name="add")], [fvi("x", [2])], [fvi("y", [2])])


@bad("cycle")
def _():
    nodes = [node("Add", ["x", "b"], ["a"], name="first"), node("Relu", ["a"], ["b"], name="second")]
    return simple_model(nodes, [fvi("x", [2])], [fvi("b", [2])])


@bad("dynamic_dimension")
def _():
    return simple_model([node("Relu", ["x"], ["y"])], [fvi("x", ["batch", 3])], [fvi("y", ["batch", 3])])


@bad("unsupported_input_type")
def _():
    return simple_model([node("Identity", ["x"], ["y"])], [fvi("x", [2], TensorProto.STRING)],
                        [fvi("y", [2], TensorProto.STRING)])


@bad("duplicate_input_name")
def _():
    return simple_model([node("Add", ["x", "x"], ["y"])], [fvi("x", [2]), fvi("x", [2])], [fvi("y", [2])])


@bad("initializer_unlike_its_input")
def _():
    weight = numpy_helper.from_array(np.ones(3, dtype=np.float32), "w")
    return simple_model([node("Add", ["x", "w"], ["y"])], [fvi("x", [3]), fvi("w", [2])], [fvi("y", [3])], [weight])


@bad("raw_data_size")
def _():
    weight = helper.make_tensor("w", TensorProto.FLOAT, [2, 3], b"\x00" * 24, raw=True)
    weight.raw_data = b"\x00" * 8
    return simple_model([node("Add", ["x", "w"], ["y"])], [fvi("x", [2, 3])], [fvi("y", [2, 3])], [weight])


@bad("typed_data_count")
def _():
    weight = helper.make_tensor("w", TensorProto.FLOAT, [2, 3], [1.0] * 6)
    del weight.float_data[2:]
    return simple_model([node("Add", ["x", "w"], ["y"])], [fvi("x", [2, 3])], [fvi("y", [2, 3])], [weight])


@bad("external_data")
def _():
    weight = helper.make_tensor("w", TensorProto.FLOAT, [2], [1.0, 2.0])
    weight.ClearField("float_data")
    weight.data_location = TensorProto.EXTERNAL
    entry = weight.external_data.add()
    entry.key, entry.value = "location", "weights.bin"
    return simple_model([node("Add", ["x", "w"], ["y"])], [fvi("x", [2])], [fvi("y", [2])], [weight])


@bad("attribute_wrong_type")
def _():
    n = node("Transpose", ["x"], ["y"], name="transpose", perm=1)
    return simple_model([n], [fvi("x", [2, 3])], [fvi("y", [3, 2])])


@bad("attribute_wrong_count")
def _():
    w = numpy_helper.from_array(rand(2, 1, 3, 3), "w")
    n = node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1])
    return simple_model([n], [fvi("x", [1, 1, 5, 5])], [fvi("y", [1, 2, 5, 5])], [w])


@bad("bad_auto_pad")
def _():
    w = numpy_helper.from_array(rand(2, 1, 3, 3), "w")
    n = node("Conv", ["x", "w"], ["y"], name="conv", auto_pad="SOMETIMES")
    return simple_model([n], [fvi("x", [1, 1, 5, 5])], [fvi("y", [1, 2, 5, 5])], [w])


@bad("conv1d")
def _():
    w = numpy_helper.from_array(rand(2, 1, 3), "w")
    return simple_model([node("Conv", ["x", "w"], ["y"], name="conv")], [fvi("x", [1, 1, 5])], [fvi("y", [1, 2, 3])],
                        [w])


@bad("runtime_reshape_shape")
def _():
    return simple_model([node("Reshape", ["x", "s"], ["y"], name="reshape")],
                        [fvi("x", [2, 3]), fvi("s", [2], TensorProto.INT64)], [fvi("y", [3, 2])])


@bad("dtype_mismatch")
def _():
    return simple_model([node("Add", ["x", "i"], ["y"], name="add")],
                        [fvi("x", [2]), fvi("i", [2], TensorProto.INT64)], [fvi("y", [2])])


@bad("shape_mismatch")
def _():
    return simple_model([node("MatMul", ["a", "b"], ["y"], name="matmul")], [fvi("a", [2, 3]), fvi("b", [4, 5])],
                        [fvi("y", [2, 5])])


@bad("output_not_produced")
def _():
    return simple_model([node("Relu", ["x"], ["y"])], [fvi("x", [2])], [fvi("z", [2])])


@bad("produced_twice")
def _():
    nodes = [node("Relu", ["x"], ["y"], name="one"), node("Neg", ["x"], ["y"], name="two")]
    return simple_model(nodes, [fvi("x", [2])], [fvi("y", [2])])


@bad("no_outputs")
def _():
    return simple_model([node("Relu", ["x"], ["y"])], [fvi("x", [2])], [])


@bad("missing_required_input")
def _():
    return simple_model([node("Conv", ["x"], ["y"], name="conv")], [fvi("x", [1, 1, 3, 3])], [fvi("y", [1, 1, 3, 3])])


@bad("missing_required_attribute")
def _():
    return simple_model([node("Concat", ["x", "x"], ["y"], name="concat")], [fvi("x", [2])], [fvi("y", [4])])


@bad("concat_one_input_bad_axis")
def _():
    return simple_model([node("Concat", ["x"], ["y"], name="concat", axis=2)], [fvi("x", [2, 3])], [fvi("y", [2, 3])])


@bad("pool_indices_used")
def _():
    nodes = [node("MaxPool", ["x"], ["y", "indices"], name="pool", kernel_shape=[2, 2]),
             node("Identity", ["indices"], ["z"], name="identity")]
    return simple_model(nodes, [fvi("x", [1, 1, 2, 2])], [fvi("z", [1, 1, 1, 1], TensorProto.INT64)])


@bad("input_without_shape")
def _():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    return simple_model([node("Relu", ["x"], ["y"])], [x], [fvi("y", [2])])


@bad("batch_norm_training")
def _():
    params = [numpy_helper.from_array(np.ones(2, np.float32), name) for name in ("s", "b", "m", "v")]
    n = node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn", training_mode=1)
    return simple_model([n], [fvi("x", [1, 2, 2, 2])], [fvi("y", [1, 2, 2, 2])], params, opset=15)


@bad("huge_constant_of_shape")
def _():
    shape = numpy_helper.from_array(i64(1 << 20, 1 << 20, 1 << 20), "shape")
    return simple_model([node("ConstantOfShape", ["shape"], ["y"], name="fill")], [], [fvi("y", [1, 1, 1])], [shape])


@bad("huge_dft_length")
def _():
    # found by the ONNX importer fuzzer: the transform's constant matrices were allocated at any size
    length = numpy_helper.from_array(np.array(1 << 20, np.int64), "length")
    return simple_model([node("DFT", ["x", "length"], ["y"], name="dft", axis=2, onesided=1)],
                        [fvi("x", [2, 3, 5, 1])], [fvi("y", [2, 3, 5, 2])], [length], opset=17)


@bad("control_characters_in_names")
def _():
    return simple_model([node("NoSuchOp", ["x"], ["y"], name="two\nlines")], [fvi("x", [2])], [fvi("y", [2])])


@bad("declared_output_mismatch")
def _():
    return simple_model([node("Relu", ["x"], ["y"], name="relu")], [fvi("x", [2, 3])], [fvi("y", [3, 2])])


# ----------------------------------------------------------------------------------------------


def write_good(out_dir, name, case):
    model = build_model(case, name)
    if getattr(case, "symbolic_first_dim", False):
        for value in list(model.graph.input) + list(model.graph.output):
            value.type.tensor_type.shape.dim[0].dim_param = "batch"
    if getattr(case, "inputs_without_data", None):
        model.ir_version = getattr(case, "ir_version", 3)
    with open(os.path.join(out_dir, name + ".onnx"), "wb") as file:
        file.write(model.SerializeToString())
    inputs = {key: value for key, value in case.inputs.items()
              if key not in getattr(case, "inputs_without_data", [])}
    np.savez(os.path.join(out_dir, name + ".inputs.npz"), **inputs)
    np.savez(os.path.join(out_dir, name + ".outputs.npz"), **{k: np.asarray(v) for k, v in case.outputs.items()})


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name, build in GOOD.items():
        write_good(out_dir, name, build())
    for name, build in BAD.items():
        content = build()
        data = content if isinstance(content, bytes) else content.SerializeToString()
        with open(os.path.join(out_dir, "bad_" + name + ".onnx"), "wb") as file:
            file.write(data)
    with open(os.path.join(out_dir, "manifest.txt"), "w") as file:
        file.write("\n".join(GOOD) + "\n")
    with open(os.path.join(out_dir, "bad_manifest.txt"), "w") as file:
        file.write("\n".join(BAD) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
