#!/usr/bin/python3
"""Tests that zoo models give checks something to catch: no zero-initialized layers silence an
output, batch-norm statistics are calibrated, and export_zoo refuses to write reference outputs
that are constant, vanishing or exploding."""

import os
import sys
import tempfile
import unittest

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models"))

import export_zoo  # noqa: E402
import zoo_models  # noqa: E402


class ConstantOutput(nn.Module):
    def forward(self, x):
        return torch.zeros(1, 4) * x.sum()


class Scaled(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return x * self.scale


class ZooModelsTest(unittest.TestCase):
    def test_zero_initialized_linear_layers_get_random_weights_and_others_are_kept(self):
        model = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
        nn.init.zeros_(model[1].weight)
        kept = model[0].weight.detach().clone()
        zoo_models._randomize_zero_weights(model)
        self.assertTrue(torch.equal(model[0].weight, kept))
        self.assertTrue(bool(model[1].weight.detach().any()))

    def test_vit_output_depends_on_its_input(self):
        torch.manual_seed(0)
        model = zoo_models.ZOO_BY_NAME["vit_b_16"].build().eval()
        with torch.no_grad():
            output = model(torch.randn(1, 3, 224, 224))
        self.assertGreater(float(output.std()), 0.0)

    def test_export_refuses_a_constant_output_and_writes_nothing(self):
        model = zoo_models.ZooModel("constant", ConstantOutput, [zoo_models.ZooInput("x", (1, 4))], ["output"])
        with tempfile.TemporaryDirectory() as folder:
            with self.assertRaisesRegex(RuntimeError, "output 'output' has standard deviation 0"):
                export_zoo.export_model(model, folder)
            self.assertEqual(os.listdir(folder), [])

    def test_export_refuses_vanishing_and_exploding_outputs(self):
        for scale, words in ((1e-9, "standard deviation [0-9.]+e-(09|10), outside"),
                             (1e9, "standard deviation [0-9.]+e\\+(08|09), outside")):
            model = zoo_models.ZooModel("scaled", lambda scale=scale: Scaled(scale), [zoo_models.ZooInput("x", (1, 64))],
                                        ["output"])
            with tempfile.TemporaryDirectory() as folder:
                with self.assertRaisesRegex(RuntimeError, words):
                    export_zoo.export_model(model, folder)
                self.assertEqual(os.listdir(folder), [])

    def test_degenerate_outputs_are_recognized(self):
        import numpy

        with tempfile.TemporaryDirectory() as folder:
            paths = {name: os.path.join(folder, name + ".npz") for name in ("constant", "tiny", "huge", "nan", "varied")}
            varied = numpy.arange(5, dtype=numpy.float32)
            numpy.savez(paths["constant"], output=numpy.zeros((1, 5), numpy.float32))
            numpy.savez(paths["tiny"], output=varied * 1e-9)
            numpy.savez(paths["huge"], output=varied * 1e9)
            numpy.savez(paths["nan"], output=numpy.array([1.0, numpy.nan], numpy.float32))
            numpy.savez(paths["varied"], output=varied, scalar=numpy.zeros((), numpy.float32))
            for name in ("constant", "tiny", "huge", "nan"):
                self.assertTrue(export_zoo.has_degenerate_output(paths[name]), name)
            self.assertFalse(export_zoo.has_degenerate_output(paths["varied"]))

    def test_batch_norm_calibration_keeps_a_deep_random_network_in_range(self):
        # Twenty random conv + batch-norm layers: with default running statistics (mean 0,
        # variance 1) the activations scale by the same factor at each layer and vanish;
        # calibrated, each layer normalizes them.
        torch.manual_seed(0)
        layers = []
        for _ in range(20):
            layers += [nn.Conv2d(8, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8)]
        for layer in layers[::2]:
            nn.init.normal_(layer.weight, std=0.01)
        network = nn.Sequential(*layers)
        model = zoo_models.ZooModel("deep", lambda: network, [zoo_models.ZooInput("x", (1, 8, 8, 8))], ["output"])
        x = torch.randn(1, 8, 8, 8)
        with torch.no_grad():
            uncalibrated = float(network.eval()(x).std())
            export_zoo.calibrate_batch_norms(network, model, 0)
            calibrated = float(network.eval()(x).std())
        self.assertLess(uncalibrated, 1e-3)
        self.assertGreater(calibrated, 0.1)
        self.assertLess(calibrated, 10.0)


if __name__ == "__main__":
    unittest.main()
