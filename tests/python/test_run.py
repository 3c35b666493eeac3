"""Compiling and running zoo models on numpy arrays, against torch's outputs; calling by
position and by name; output naming; inputs of the wrong kind."""

import numpy as np
import pytest

import collage
from conftest import assert_matches, has_backend, scaled_error, zoo_model

BACKEND_SETS = [["native"], ["onednn", "native"], ["xnnpack", "openblas", "native"]]
SMALL_MODELS = ["mnist_cnn", "dcgan_generator", "squeezenet1_1"]


@pytest.mark.parametrize("backends", BACKEND_SETS, ids=lambda backends: ",".join(backends))
@pytest.mark.parametrize("name", SMALL_MODELS)
def test_a_zoo_model_matches_torch(name, backends):
    if not all(has_backend(backend) for backend in backends):
        pytest.skip(f"built without one of {backends}")
    path, inputs, expected = zoo_model(name)
    compiled = collage.compile(path, backends=backends, threads=2)
    assert_matches(compiled(*inputs.values()), expected)


def test_the_comparison_fails_on_a_wrong_output(mnist):
    # Negative control of the rule the zoo tests use: an output off by 1 % of its magnitude fails.
    _, _, expected = mnist
    wrong = expected[0].copy()
    wrong.flat[0] += 0.01 * np.max(np.abs(expected[0]))
    assert scaled_error(wrong, expected[0]) > 1e-3
    with pytest.raises(AssertionError):
        assert_matches(wrong, expected[0])


def test_calls_by_position_and_by_name_agree(mnist):
    path, inputs, expected = mnist
    compiled = collage.compile(path, backends=["native"])
    by_position = compiled(*inputs.values())
    by_name = compiled(**inputs)
    assert np.array_equal(by_position, by_name)
    assert_matches(by_name, expected)


def test_run_names_a_single_output_output(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    outputs = compiled.run(np.ones((2, 3), np.float32))
    assert list(outputs) == ["output"]
    assert isinstance(outputs["output"], np.ndarray)


def test_a_tuple_result_is_numbered_and_called_as_a_tuple(pair_model):
    compiled = collage.compile(pair_model, backends=["native"])
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.full((2, 3), 2, np.float32)
    assert list(compiled.run(x, y)) == ["output0", "output1"]
    total, product = compiled(x=x, y=y)
    assert np.array_equal(total, x + y)
    assert np.array_equal(product, x * y)


def test_outputs_of_one_run_survive_the_next(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    first = compiled(np.ones((2, 3), np.float32))
    second = compiled(np.full((2, 3), 5, np.float32))
    assert np.array_equal(first, np.ones((2, 3), np.float32))
    assert np.array_equal(second, np.full((2, 3), 5, np.float32))


def test_an_input_of_another_dtype_is_refused_not_converted(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    with pytest.raises(collage.UsageError) as error:
        compiled(np.ones((2, 3), np.float64))
    assert str(error.value) == ("input 'x' is a numpy array of shape (2, 3) and dtype float64, but the model expects "
                                "f32 (float32); convert it with .astype()")


def test_an_input_of_another_shape_is_refused(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    with pytest.raises(collage.UsageError) as error:
        compiled(np.ones((3, 2), np.float32))
    assert str(error.value) == "input 'x' is Tensor[(3, 2), f32] but parameter 'x' expects Tensor[(2, 3), f32]"


def test_missing_and_unknown_input_names_are_refused(pair_model):
    compiled = collage.compile(pair_model, backends=["native"])
    x = np.ones((2, 3), np.float32)
    with pytest.raises(collage.UsageError) as error:
        compiled(x=x)
    assert str(error.value) == "no input for parameter 'y' (expected Tensor[(2, 3), f32]); given: x"
    with pytest.raises(collage.UsageError) as error:
        compiled(x=x, y=x, z=x)
    assert str(error.value) == "input 'z' matches no parameter of @main (parameters: x, y)"


def test_wrong_input_counts_and_mixed_calls_are_refused(pair_model):
    compiled = collage.compile(pair_model, backends=["native"])
    x = np.ones((2, 3), np.float32)
    with pytest.raises(collage.UsageError, match=r"^@main expects 2 inputs, got 1$"):
        compiled(x)
    with pytest.raises(collage.UsageError, match="either by position or by name"):
        compiled(x, y=x)


def test_an_input_that_is_not_an_array_is_refused(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    with pytest.raises(collage.UsageError, match=r"^input 'x' is a list, not a numpy array$"):
        compiled([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
