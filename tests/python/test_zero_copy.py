"""numpy inputs of the right dtype in C order reach the runtime uncopied; other layouts are
copied into C order (and still give the right results)."""

import numpy as np

import collage
from conftest import assert_matches


def test_a_c_ordered_array_reaches_the_runtime_at_its_own_address(mnist):
    path, inputs, expected = mnist
    compiled = collage.compile(path, backends=["native"])
    array = next(iter(inputs.values()))
    assert array.flags["C_CONTIGUOUS"] and array.dtype == np.float32
    copies = collage._collage._copied_arrays()
    assert_matches(compiled(array), expected)
    assert compiled._native._last_input_addresses() == [array.ctypes.data]
    assert collage._collage._copied_arrays() == copies


def test_a_fortran_ordered_array_is_copied_and_still_right(pair_model):
    # Negative control of the test above: here the runtime sees another buffer.
    compiled = collage.compile(pair_model, backends=["native"])
    x = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = np.ones((2, 3), np.float32)
    copies = collage._collage._copied_arrays()
    total, _ = compiled(x, y)
    addresses = compiled._native._last_input_addresses()
    assert addresses[0] != x.ctypes.data
    assert addresses[1] == y.ctypes.data
    assert collage._collage._copied_arrays() == copies + 1
    assert np.array_equal(total, x + y)


def test_a_strided_view_is_copied_and_still_right(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    base = np.arange(-6, 6, dtype=np.float32).reshape(2, 6)
    view = base[:, ::2]
    assert not view.flags["C_CONTIGUOUS"]
    assert np.array_equal(compiled(view), np.maximum(view, 0))
    assert compiled._native._last_input_addresses() != [view.ctypes.data]


def test_the_input_buffer_is_left_unchanged(relu_model):
    compiled = collage.compile(relu_model, backends=["native"])
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    before = x.copy()
    compiled(x)
    assert np.array_equal(x, before)
