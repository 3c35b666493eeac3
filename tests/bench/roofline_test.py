#!/usr/bin/python3
"""Tests of bench/roofline.py's GEMM work count and bounds on a small hand-made model."""

import os
import tempfile
import unittest

import numpy
import onnx
from onnx import TensorProto, helper, numpy_helper

from script_with_json import RESULTS, run_with_json, assert_close

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "roofline.py")


def tensor(name, shape, batch=None):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, [batch or shape[0]] + shape[1:])


def weights(name, shape):
    return numpy_helper.from_array(numpy.ones(shape, numpy.float32), name)


def save_gemm_model(path, batch=None):
    """MatMul 2x3x4 (24 multiply-adds), Gemm with transA 2x5x3 (30), Conv 2->4 channels 3x3 on 5x5
    (36 outputs x 18 = 648) and ConvTranspose 2->3 channels 2x2 on 3x3 (18 inputs x 12 = 216): 918."""
    nodes = [helper.make_node("MatMul", ["a", "a_w"], ["a_out"]),
             helper.make_node("Gemm", ["b", "b_w"], ["b_out"], transA=1),
             helper.make_node("Conv", ["c", "c_w"], ["c_out"]),
             helper.make_node("ConvTranspose", ["d", "d_w"], ["d_out"]),
             helper.make_node("Relu", ["a_out"], ["relu_out"])]
    inputs = [tensor("a", [2, 3], batch), tensor("b", [5, 2]), tensor("c", [1, 2, 5, 5]), tensor("d", [1, 2, 3, 3])]
    outputs = [tensor("relu_out", [2, 4], batch), tensor("b_out", [2, 3]), tensor("c_out", [1, 4, 3, 3]),
               tensor("d_out", [1, 3, 4, 4])]
    initializers = [weights("a_w", [3, 4]), weights("b_w", [5, 3]), weights("c_w", [4, 2, 3, 3]),
                    weights("d_w", [2, 3, 2, 2])]
    model = helper.make_model(helper.make_graph(nodes, "gemms", inputs, outputs, initializers),
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)


class RooflineTest(unittest.TestCase):
    def run_script(self, zoo, results, *extra):
        return run_with_json(SCRIPT, RESULTS, "--zoo", zoo, *extra, results=results)

    def test_work_bound_and_ceiling(self):
        with tempfile.TemporaryDirectory() as zoo:
            save_gemm_model(os.path.join(zoo, "tiny.onnx"))
            results = {"models": [{"model": "tiny", "threads": 2,
                                   "latency_ms": {"single:a": 0.002, "single:b": 0.001, "greedy": 0.002,
                                                  "collage": 0.0009, "collage-graph": 0.0008}}]}
            completed, combined = self.run_script(zoo, results, "--peak-gflops", "2")
            self.assertEqual(completed.returncode, 0, completed.stderr)
            row = combined["models"][0]
            assert_close(self, row["gflop"], 2 * 918e-9)
            self.assertEqual(row["best_single"], "single:b")
            assert_close(self, row["best_single_gflops"], 2 * 918e-9 / 1e-6)
            assert_close(self, row["collage_ms"], 0.0008)
            assert_close(self, row["bound_ms"], 2 * 918e-9 / 2 * 1e3)
            assert_close(self, row["ceiling_vs_best_single"], 0.001 / (918e-9 * 1e3))
            self.assertIn("geomean ceiling over the best single backend: 1.09x", completed.stdout)
            self.assertRegex(completed.stdout, r"^cpu: .+; GEMM peak: 2 GFLOP/s\n")
            self.assertNotIn("ort", row)
            self.assertNotIn("ORT", completed.stdout)

    def test_onnx_runtime_ceiling(self):
        with tempfile.TemporaryDirectory() as zoo:
            save_gemm_model(os.path.join(zoo, "tiny.onnx"))
            save_gemm_model(os.path.join(zoo, "other.onnx"))
            results = {"models": [{"model": "tiny", "latency_ms": {"single:a": 0.002, "collage": 0.0009},
                                   "ort_ms": 0.0018},
                                  {"model": "other", "latency_ms": {"single:a": 0.002, "collage": 0.0009},
                                   "ort_ms": None}]}
            completed, combined = self.run_script(zoo, results, "--peak-gflops", "2")
            self.assertEqual(completed.returncode, 0, completed.stderr)
            with_ort, without_ort = combined["models"]
            bound_ms = 2 * 918e-9 / 2 * 1e3
            assert_close(self, with_ort["ort_ms"], 0.0018)
            assert_close(self, with_ort["ort_gflops"], 2 * 918e-9 / 1.8e-6)
            assert_close(self, with_ort["ceiling_vs_ort"], 0.0018 / bound_ms)
            self.assertNotIn("ceiling_vs_ort", without_ort)
            self.assertIn("geomean ceiling of ORT / Collage: 1.96x (models with an ORT latency: 1 of 2)", completed.stdout)
            self.assertRegex(completed.stdout, r"\nother .* -  +-  +-\n")

    def test_a_dynamic_shape_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as zoo:
            save_gemm_model(os.path.join(zoo, "dynamic.onnx"), batch="n")
            results = [{"model": "dynamic", "latency_ms": {"single:a": 1.0, "collage": 1.0}}]
            completed, _ = self.run_script(zoo, results, "--peak-gflops", "2")
            self.assertEqual(completed.returncode, 1)
            self.assertRegex(completed.stderr, r"^roofline: error: .*dynamic.onnx: node '#0' \(MatMul\): the shape of "
                                               r"'a_out' is not static\n$")

    def test_a_missing_model_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as zoo:
            completed, _ = self.run_script(zoo, [{"model": "absent", "latency_ms": {"collage": 1.0}}],
                                           "--peak-gflops", "2")
            self.assertEqual(completed.returncode, 1)
            self.assertIn("absent.onnx: no such model", completed.stderr)


if __name__ == "__main__":
    unittest.main()
