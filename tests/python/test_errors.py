"""Every error class, raised with the one-line message the `collage` tool prints for the same
mistake."""

import os
import subprocess
import sys

import pytest

import collage
from conftest import BUILD, REPOSITORY, RELU_MODEL, cli_error

CONV_BLOCK = os.path.join(REPOSITORY, "examples", "conv_block.cir")
ILL_TYPED = os.path.join(REPOSITORY, "examples", "ill_typed.cir")


COMPILE_RELU_ON_NATIVE = f"""
import collage
try:
    collage.compile(collage.Model.from_text({RELU_MODEL!r}), backends=["native"])
    print("compiled: no error")
except collage.Error as error:
    print(type(error).__name__ + ": " + str(error))
"""


def message(error_class, action) -> str:
    with pytest.raises(error_class) as error:
        action()
    return str(error.value)


def test_the_classes_form_one_hierarchy():
    for error_class in (collage.UsageError, collage.ModelError, collage.BackendError):
        assert issubclass(error_class, collage.Error)
    assert issubclass(collage.Error, Exception)
    assert not issubclass(collage.UsageError, collage.ModelError)


def test_an_unknown_backend(relu_model):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, backends=["native", "nope"])) == \
        cli_error("partition", CONV_BLOCK, "--backends", "native,nope")


def test_a_backend_listed_twice(relu_model):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, backends=["native", "native"])) == \
        cli_error("partition", CONV_BLOCK, "--backends", "native,native")


def test_an_unknown_cost_model_or_search(relu_model):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, cost="guessed")) == \
        cli_error("partition", CONV_BLOCK, "--cost", "guessed")
    assert message(collage.UsageError, lambda: collage.compile(relu_model, search="deep")) == \
        cli_error("partition", CONV_BLOCK, "--search", "deep")


def test_graph_search_and_a_database_need_measured_costs(relu_model, tmp_path):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, search="graph")) == \
        cli_error("partition", CONV_BLOCK, "--search", "graph")
    database = str(tmp_path / "costs.sqlite")
    assert message(collage.UsageError, lambda: collage.compile(relu_model, db=database)) == \
        cli_error("partition", CONV_BLOCK, "--db", database)


def test_precision_options_are_refused_as_the_tool_refuses_them(relu_model):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, precision="auto")) == \
        cli_error("partition", CONV_BLOCK, "--precision", "auto")
    assert message(collage.UsageError, lambda: collage.compile(relu_model, precision="half")) == \
        cli_error("partition", CONV_BLOCK, "--precision", "half")
    assert message(collage.UsageError, lambda: collage.compile(relu_model, metric="top5")) == \
        cli_error("partition", CONV_BLOCK, "--precision", "auto", "--metric", "top5")


def test_a_thread_count_out_of_range(relu_model):
    assert message(collage.UsageError, lambda: collage.compile(relu_model, threads=0)) == \
        cli_error("partition", CONV_BLOCK, "--threads", "0")
    assert message(collage.UsageError, lambda: collage.compile(relu_model, threads=100000)) == \
        cli_error("partition", CONV_BLOCK, "--threads", "100000")


def test_a_missing_model_file():
    missing = "/nonexistent/model.onnx"
    assert message(collage.ModelError, lambda: collage.compile(missing)) == cli_error("partition", missing)


def test_an_ill_typed_model():
    assert message(collage.ModelError, lambda: collage.compile(ILL_TYPED)) == cli_error("run", ILL_TYPED)


def test_malformed_onnx_bytes():
    assert message(collage.ModelError, lambda: collage.load(b"not a protobuf")).startswith("model.onnx")


def test_a_partition_a_backend_cannot_compile(tmp_path):
    # The native backend keeps its kernels under $COLLAGE_CACHE_DIR/native: where that cannot
    # be a folder, compiling any partition fails, in the package as in the tool.
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    environment = dict(os.environ, COLLAGE_CACHE_DIR=str(not_a_folder / "cache"), PYTHONPATH=os.path.join(BUILD, "python"))
    result = subprocess.run([sys.executable, "-c", COMPILE_RELU_ON_NATIVE], capture_output=True, text=True,
                            env=environment, check=True)
    kind, text = result.stdout.strip().split(": ", 1)
    assert kind == "BackendError"
    assert text.startswith("partition native_0: backend 'native' cannot compile it: native: cannot create the cache folder")
    assert text == cli_error("run", CONV_BLOCK, "--backends", "native", environment=environment)


def test_valid_options_raise_nothing(relu_model):
    # Negative control of the tests above: the same calls with valid values compile.
    collage.compile(relu_model, backends=["native"], cost="analytic", search="op", threads=1)
