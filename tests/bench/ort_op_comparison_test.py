#!/usr/bin/python3
"""Tests of bench/ort_op_comparison.py: the shape keys of oneDNN's primitives and ORT's nodes, the
pairing, and one real run on a small model when the collage CLI (COLLAGE_CLI) has the onednn
backend and ONNX Runtime is installed."""

import os
import subprocess
import sys
import tempfile
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
from script_with_json import run_with_json, assert_close
from small_models import save_convolution_model
from zoo_bench_test import ort_is_installed

SCRIPT = os.path.join(BENCH, "ort_op_comparison.py")
sys.path.insert(0, BENCH)
import ort_op_comparison  # noqa: E402

SIGNATURE = "cpu,convolution,jit_1x1:avx2,forward_inference,src_f32::blocked:aBcd8b:f0,{attributes},alg:convolution_direct,{descriptor}"
POINTWISE_WITH_DEPTHWISE = SIGNATURE.format(
    attributes="attr-post-ops:eltwise_clip:0:6+dw:k3s2p1+eltwise_clip:0:6 ",
    descriptor="mb1_ic16oc96_ih112oh56kh1sh1dh0ph0_iw112ow56kw1sw1dw0pw0")
DEPTHWISE = SIGNATURE.format(attributes="attr-post-ops:eltwise_swish:1 ",
                             descriptor="g32mb1_ic32oc32_ih112oh112kh3sh1dh0ph1_iw112ow112kw3sw1dw0pw1")
STRIDED = SIGNATURE.format(attributes="", descriptor="mb1_ic3oc32_ih224oh112kh3sh2dh0ph1_iw224ow112kw3sw2dw0pw1")
MATMUL = "cpu,matmul,gemm:jit,undef,src_f32::blocked:ab:f0,,,1x1280:1280x1000:1x1000"
BATCHED_MATMUL = "cpu,matmul,brg:avx2,undef,src_f32::blocked:abc:f0,,,12x197x64:12x64x197:12x197x197"
INNER_PRODUCT = "cpu,inner_product,gemm:jit,forward_inference,src_f32::blocked:ab:f0,,,mb1ic2048oc1000"
REORDER = "cpu,reorder,jit:uni,undef,src_f32::blocked:aBcd8b:f0 dst_f32::blocked:abcd:f0,,,1x32x112x112"


def node(name, op_type, inputs, outputs, microseconds):
    return {"cat": "Node", "name": name + "_kernel_time", "dur": microseconds,
            "args": {"op_name": op_type, "input_type_shape": [{"float": shape} for shape in inputs],
                     "output_type_shape": [{"float": shape} for shape in outputs]}}


class KeyTest(unittest.TestCase):
    def test_convolutions_are_keyed_by_channels_sizes_kernel_and_groups(self):
        self.assertEqual(ort_op_comparison.onednn_operator("convolution", STRIDED),
                         ("conv 3->32 224x224->112x112 k3x3", ["conv 3->32 224x224->112x112 k3x3"]))
        self.assertEqual(ort_op_comparison.onednn_operator("convolution", DEPTHWISE)[0],
                         "conv 32->32 112x112->112x112 k3x3 g32")
        self.assertEqual(ort_op_comparison.ort_operator("Conv", [[1, 32, 112, 112], [32, 1, 3, 3], [32]],
                                                        [[1, 32, 112, 112]]),
                         "conv 32->32 112x112->112x112 k3x3 g32")

    def test_a_fused_depthwise_convolution_stands_for_both_of_orts_nodes(self):
        key, stands_for = ort_op_comparison.onednn_operator("convolution", POINTWISE_WITH_DEPTHWISE)
        self.assertEqual(key, "conv 16->96 112x112->112x112 k1x1 + dw k3x3 s2")
        self.assertEqual(stands_for, ["conv 16->96 112x112->112x112 k1x1", "conv 96->96 112x112->56x56 k3x3 g96"])

    def test_products_are_keyed_by_rows_depth_and_columns(self):
        self.assertEqual(ort_op_comparison.onednn_operator("matmul", MATMUL)[0], "product 1x1280x1000")
        self.assertEqual(ort_op_comparison.onednn_operator("matmul", BATCHED_MATMUL)[0], "product 2364x64x197")
        self.assertEqual(ort_op_comparison.onednn_operator("inner_product", INNER_PRODUCT)[0], "product 1x2048x1000")
        # ORT's trace leaves out prepacked weights: depth from the first input, columns from the output.
        self.assertEqual(ort_op_comparison.ort_operator("Gemm", [[1, 1280], [1000]], [[1, 1000]]), "product 1x1280x1000")
        self.assertEqual(ort_op_comparison.ort_operator("MatMul", [[1, 12, 197, 64], [1, 12, 64, 197]],
                                                        [[1, 12, 197, 197]]), "product 2364x64x197")

    def test_other_primitives_and_nodes_have_no_key(self):
        self.assertEqual(ort_op_comparison.onednn_operator("reorder", REORDER), ("reorder", []))
        self.assertIsNone(ort_op_comparison.ort_operator("Relu", [[1, 8]], [[1, 8]]))


class PairingTest(unittest.TestCase):
    TRACE = [node("a", "Conv", [[1, 16, 112, 112], [96, 16, 1, 1]], [[1, 96, 112, 112]], 500),
             node("b", "Conv", [[1, 96, 112, 112], [96, 1, 3, 3]], [[1, 96, 56, 56]], 250),
             node("c", "Conv", [[1, 3, 224, 224], [32, 3, 3, 3]], [[1, 32, 112, 112]], 400),
             node("c", "Conv", [[1, 3, 224, 224], [32, 3, 3, 3]], [[1, 32, 112, 112]], 900),
             node("c", "Conv", [[1, 3, 224, 224], [32, 3, 3, 3]], [[1, 32, 112, 112]], 420),
             node("d", "Gemm", [[1, 1280], [1000]], [[1, 1000]], 300),
             node("e", "QuickGelu", [[1, 32, 112, 112]], [[1, 32, 112, 112]], 100),
             node("f", "Conv", [[1, 8, 7, 7], [8, 8, 1, 1]], [[1, 8, 7, 7]], 50),
             {"cat": "Session", "name": "model_run", "dur": 99999}]

    def test_node_times_are_medians_over_runs(self):
        times = {(op_type, key): ms for op_type, key, ms in ort_op_comparison.ort_node_times(self.TRACE)}
        assert_close(self, times[("Conv", "conv 3->32 224x224->112x112 k3x3")], 0.42)
        assert_close(self, times[("QuickGelu", None)], 0.1)
        self.assertEqual(len(times), 6)

    def test_pairs_and_unpaired_time(self):
        onednn = [("convolution", POINTWISE_WITH_DEPTHWISE, 0.6), ("convolution", STRIDED, 0.3),
                  ("matmul", MATMUL, 0.45), ("reorder", REORDER, 0.05), ("convolution", DEPTHWISE, 0.2)]
        row = ort_op_comparison.comparison_row("tiny", onednn, ort_op_comparison.ort_node_times(self.TRACE), 2.0, 2.5)
        pairs = {pair["operator"]: pair for pair in row["pairs"]}
        fused = pairs["conv 16->96 112x112->112x112 k1x1 + dw k3x3 s2"]
        self.assertEqual((fused["onednn_count"], fused["ort_count"]), (1, 2))
        assert_close(self, fused["onednn_ms"], 0.6)
        assert_close(self, fused["ort_ms"], 0.75)
        assert_close(self, pairs["conv 3->32 224x224->112x112 k3x3"]["ort_ms"], 0.42)
        assert_close(self, pairs["product 1x1280x1000"]["ort_ms"], 0.3)
        self.assertEqual(len(pairs), 3)
        # The depthwise convolution has no ORT node of its shape; ORT's 1x1 on 7x7 has no oneDNN one.
        self.assertEqual(set(row["onednn_unpaired_ms"]), {"reorder", "convolution"})
        assert_close(self, row["onednn_unpaired_ms"]["convolution"], 0.2)
        self.assertEqual(set(row["ort_unpaired_ms"]), {"QuickGelu", "Conv"})
        assert_close(self, row["ort_unpaired_ms"]["Conv"], 0.05)
        assert_close(self, row["onednn_profiled_ms"], 1.6)
        assert_close(self, row["ort_profiled_ms"], 0.5 + 0.25 + 0.42 + 0.3 + 0.1 + 0.05)
        # Every millisecond is paired or unpaired, on both sides.
        for side in ("onednn", "ort"):
            accounted = sum(pair[side + "_ms"] for pair in row["pairs"]) + sum(row[side + "_unpaired_ms"].values())
            assert_close(self, accounted, row[side + "_profiled_ms"])

    def test_a_node_pairs_once(self):
        onednn = [("convolution", STRIDED, 0.3), ("convolution", STRIDED, 0.35)]
        trace = [node("c", "Conv", [[1, 3, 224, 224], [32, 3, 3, 3]], [[1, 32, 112, 112]], 400)]
        row = ort_op_comparison.comparison_row("tiny", onednn, ort_op_comparison.ort_node_times(trace), 1.0, 1.0)
        self.assertEqual(row["pairs"][0]["onednn_count"], 1)
        self.assertEqual(row["pairs"][0]["ort_count"], 1)
        self.assertIn("convolution", row["onednn_unpaired_ms"])


class ScriptTest(unittest.TestCase):
    def test_a_missing_model_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as zoo:
            completed, _ = run_with_json(SCRIPT, "--zoo", zoo, "--models", "absent", "--collage", sys.executable)
            self.assertEqual(completed.returncode, 1)
            self.assertRegex(completed.stderr, r"^ort_op_comparison: error: .*absent.onnx: no such model")

    def test_compares_a_convolution_model(self):
        collage = os.environ.get("COLLAGE_CLI")
        if not collage:
            self.skipTest("COLLAGE_CLI is not set")
        if "onednn" not in subprocess.run([collage, "backends"], capture_output=True, text=True).stdout:
            self.skipTest("collage has no onednn backend")
        if not ort_is_installed():
            self.skipTest("node or onnxruntime-node is not installed (scripts/setup.sh installs them)")
        with tempfile.TemporaryDirectory() as zoo:
            save_convolution_model(os.path.join(zoo, "convolution_relu.onnx"))
            completed, result = run_with_json(SCRIPT, "--zoo", zoo, "--models", "convolution_relu", "--collage",
                                              collage, "--threads", "1", "--repeat", "3")
            self.assertEqual(completed.returncode, 0, completed.stderr)
            row = result["models"][0]
            self.assertEqual([pair["operator"] for pair in row["pairs"]], ["conv 8->16 16x16->16x16 k3x3"])
            pair = row["pairs"][0]
            self.assertEqual((pair["onednn_count"], pair["ort_count"]), (1, 1))
            self.assertGreater(pair["onednn_ms"], 0)
            self.assertGreater(pair["ort_ms"], 0)
            self.assertGreater(row["collage_ms"], 0)
            self.assertGreater(row["ort_ms"], 0)
            self.assertTrue(completed.stdout.startswith(f"cpu: {result['cpu']}, 1 threads\n"), completed.stdout)
            self.assertIn("conv 8->16 16x16->16x16 k3x3", completed.stdout)


if __name__ == "__main__":
    unittest.main()
