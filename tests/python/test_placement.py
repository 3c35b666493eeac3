"""The placement of a compiled model: partitions with backend, ops, layout, estimated and,
after a run, measured time; the listing; the backends of the build."""

import collage
from conftest import has_backend


def backends_for_mnist():
    return [backend for backend in ("onednn", "native") if has_backend(backend)]


def test_every_partition_has_a_listed_backend_ops_and_a_layout(mnist):
    backends = backends_for_mnist()
    compiled = collage.compile(mnist[0], backends=backends)
    placement = compiled.placement
    assert placement.backends == backends
    assert placement.cost == "analytic"
    assert len(placement) > 0
    ops = []
    for partition in placement:
        assert partition.backend in backends
        assert partition.ops, partition.symbol
        assert partition.layout in ("plain", "nhwc")
        ops += partition.ops
    assert "nn.conv2d" in ops and "nn.dense" in ops


def test_measured_times_appear_after_a_run(mnist):
    path, inputs, _ = mnist
    compiled = collage.compile(path, backends=["native"])
    assert all(partition.measured_ms is None for partition in compiled.placement)
    compiled(**inputs)
    assert all(partition.measured_ms is not None and partition.measured_ms > 0 for partition in compiled.placement)


def test_estimates_add_up_to_at_most_the_total(mnist):
    placement = collage.compile(mnist[0], backends=backends_for_mnist()).placement
    estimated = sum(partition.estimated_ms for partition in placement)
    assert 0 < estimated <= placement.estimated_total_ms * (1 + 1e-9)


def test_the_listing_names_every_partition_and_the_total(mnist):
    placement = collage.compile(mnist[0], backends=backends_for_mnist()).placement
    text = str(placement)
    for partition in placement:
        assert f"  {partition.symbol}  {partition.backend}" in text
    assert f"{len(placement)} partitions" in text.splitlines()[-1]


def test_backends_are_the_builds(mnist):
    available = collage.backends()
    assert "native" in available and "reference" in available
    assert len(set(available)) == len(available)
    for partition in collage.compile(mnist[0], backends=["reference"]).placement:
        assert partition.backend == "reference"
