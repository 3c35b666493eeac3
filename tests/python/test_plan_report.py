"""Plan files and reports: a saved plan loads back into the same placement and outputs (in
Python and in the `collage` tool), is refused for another model and after an edit; the HTML
report is written for a compiled model and refused for a loaded plan."""

import subprocess

import pytest

import collage
from conftest import assert_matches, collage_cli, has_backend


def test_a_saved_plan_loads_into_the_same_placement_and_outputs(mnist, tmp_path):
    path, inputs, expected = mnist
    backends = [backend for backend in ("onednn", "native") if has_backend(backend)]
    compiled = collage.compile(path, backends=backends)
    plan = tmp_path / "mnist.plan"
    compiled.save_plan(plan)
    assert plan.read_text().startswith("// collage plan ")
    loaded = collage.load_plan(path, plan, threads=2)
    assert loaded.threads == 2
    saved = [(p.symbol, p.backend, p.ops, p.layout) for p in compiled.placement]
    assert [(p.symbol, p.backend, p.ops, p.layout) for p in loaded.placement] == saved
    assert_matches(loaded(**inputs), expected)
    # Two threads instead of one: the backends may sum in another order.
    assert_matches(loaded(**inputs), compiled(**inputs))


def test_the_tool_runs_a_plan_saved_from_python(mnist, tmp_path):
    path = mnist[0]
    plan = tmp_path / "mnist.plan"
    collage.compile(path, backends=["native"]).save_plan(plan)
    result = subprocess.run([collage_cli(), "run", path, "--plan", str(plan), "--check"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "relative to the output's magnitude" in result.stdout


def test_a_plan_for_another_model_is_a_model_error(mnist, relu_model, tmp_path):
    plan = tmp_path / "relu.plan"
    collage.compile(relu_model, backends=["native"]).save_plan(plan)
    with pytest.raises(collage.ModelError) as error:
        collage.load_plan(mnist[0], plan)
    assert str(error.value).startswith(f"plan '{plan}' was made for model 'relu.cir' (hash ")


def test_an_edited_plan_is_a_model_error(relu_model, tmp_path):
    plan = tmp_path / "relu.plan"
    collage.compile(relu_model, backends=["native"]).save_plan(plan)
    plan.write_text(plan.read_text().replace("nn.relu", "nn.relu ", 1))
    with pytest.raises(collage.ModelError, match="plan hash"):
        collage.load_plan(relu_model, plan)


def test_a_plan_that_cannot_be_written_is_a_usage_error(relu_model, tmp_path):
    compiled = collage.compile(relu_model, backends=["native"])
    with pytest.raises(collage.UsageError, match=r"^cannot create '.*missing/relu.plan'"):
        compiled.save_plan(tmp_path / "missing" / "relu.plan")


def test_the_report_is_written_with_every_partition(mnist, tmp_path):
    compiled = collage.compile(mnist[0], backends=["native"], threads=2)
    report = tmp_path / "report.html"
    compiled.report(report)
    html = report.read_text()
    assert "<html" in html
    for partition in compiled.placement:
        assert partition.symbol in html


def test_a_loaded_plan_has_no_report(relu_model, tmp_path):
    plan = tmp_path / "relu.plan"
    collage.compile(relu_model, backends=["native"]).save_plan(plan)
    with pytest.raises(collage.UsageError, match="a plan loaded from a file does not keep"):
        collage.load_plan(relu_model, plan).report(tmp_path / "r.html")
