#!/usr/bin/python3
"""Tests that zoo models give checks something to catch: no zero-initialized layers silence an
output, and export_zoo refuses to write reference outputs that are constant."""

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
            with self.assertRaisesRegex(RuntimeError, "output 'output' is constant"):
                export_zoo.export_model(model, folder)
            self.assertEqual(os.listdir(folder), [])


    def test_an_export_with_constant_outputs_is_recognized(self):
        import numpy

        with tempfile.TemporaryDirectory() as folder:
            constant = os.path.join(folder, "constant.npz")
            varied = os.path.join(folder, "varied.npz")
            numpy.savez(constant, output=numpy.zeros((1, 5), numpy.float32))
            numpy.savez(varied, output=numpy.arange(5, dtype=numpy.float32), scalar=numpy.zeros((), numpy.float32))
            self.assertTrue(export_zoo.has_constant_output(constant))
            self.assertFalse(export_zoo.has_constant_output(varied))


if __name__ == "__main__":
    unittest.main()
