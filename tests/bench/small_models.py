"""Small ONNX models that the bench scripts' tests measure for real."""

import numpy
import onnx
from onnx import TensorProto, helper, numpy_helper


def save_matmul_model(path):
    """x (64x64) -> MatMul with constant weights -> Relu -> z."""
    weights = numpy_helper.from_array(numpy.full((64, 64), 0.5, numpy.float32), "w")
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"]), helper.make_node("Relu", ["y"], ["z"])],
                              "matmul_relu", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 64])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [64, 64])], [weights])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def save_embedding_model(path):
    """input_ids (int64, 1x8) -> Gather from a constant 16x4 table -> z: an integer input."""
    table = numpy_helper.from_array(numpy.arange(64, dtype=numpy.float32).reshape(16, 4), "table")
    graph = helper.make_graph([helper.make_node("Gather", ["table", "input_ids"], ["z"], axis=0)], "embedding",
                              [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, 8])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 8, 4])], [table])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def save_convolution_model(path):
    """x (1x8x16x16) -> 3x3 Conv to 16 channels (padded) -> Relu -> z."""
    weights = numpy_helper.from_array(numpy.full((16, 8, 3, 3), 0.125, numpy.float32), "w")
    graph = helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
                               helper.make_node("Relu", ["y"], ["z"])], "convolution_relu",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 16, 16])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 16, 16, 16])], [weights])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
