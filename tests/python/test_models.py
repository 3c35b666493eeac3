"""Loading models: ONNX files and bytes, text IR, shapes, and what a model argument may be."""

import numpy as np
import pytest

import collage
from conftest import RELU_MODEL, zoo_model


def test_an_onnx_file_loads_with_its_inputs(mnist):
    path, inputs, _ = mnist
    model = collage.load(path)
    assert model.name == path
    assert [info.name for info in model.inputs] == list(inputs)
    info = model.inputs[0]
    assert info.dtype == "f32"
    assert info.shape == inputs[info.name].shape


def test_onnx_bytes_load_into_the_same_module_as_the_file(mnist):
    path = mnist[0]
    with open(path, "rb") as file:
        from_bytes = collage.load(file.read())
    assert from_bytes.to_text() == collage.load(path).to_text()


def test_text_ir_loads_from_a_string():
    model = collage.Model.from_text(RELU_MODEL, "relu.cir")
    assert model.name == "relu.cir"
    assert [(info.name, info.dtype, info.shape) for info in model.inputs] == [("x", "f32", (2, 3))]
    assert "nn.relu" in model.to_text()


def test_a_loaded_model_is_accepted_where_a_path_is(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    assert np.array_equal(compiled(x), np.maximum(x, 0))


def test_shapes_bind_onnx_inputs_and_are_refused_for_text_ir(mnist, tmp_path):
    path, inputs, _ = mnist
    name = next(iter(inputs))
    shape = list(inputs[name].shape)
    assert collage.load(path, shapes={name: shape}).inputs[0].shape == tuple(shape)
    text_path = tmp_path / "relu.cir"
    text_path.write_text(RELU_MODEL)
    with pytest.raises(collage.ModelError) as error:
        collage.load(text_path, shapes={"x": [2, 3]})
    assert str(error.value) == f"{text_path}: --shape binds ONNX graph inputs; a text-IR model has static shapes"


def test_a_model_of_another_kind_is_a_usage_error():
    with pytest.raises(collage.UsageError, match="a model is a path, ONNX bytes or a collage.Model, not a int"):
        collage.load(42)
