#!/usr/bin/python3
"""Tests of bench/ort_bench.js (ONNX Runtime's latency of a model), of how
bench/onnx_runtime_anchor.py pools its batches, and of bench/machine.py's CPU model. The runs
through ONNX Runtime need node and onnxruntime-node (scripts/setup.sh installs them)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from script_with_json import assert_close
from small_models import save_embedding_model, save_matmul_model

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
sys.path.insert(0, BENCH)
import machine  # noqa: E402
import onnx_runtime_anchor  # noqa: E402
from zoo_bench_test import ort_is_installed  # noqa: E402

SCRIPT = os.path.join(BENCH, "ort_bench.js")


def run_ort_bench(*arguments, environment=None):
    return subprocess.run([shutil.which("node"), SCRIPT, *arguments], capture_output=True, text=True,
                          env={**os.environ, **(environment or {})})


class PoolingTest(unittest.TestCase):
    def test_quantiles_interpolate_like_collages_benchmarks(self):
        self.assertEqual(onnx_runtime_anchor.quantile([4.0, 1.0, 3.0, 2.0], 0.5), 2.5)
        assert_close(self, onnx_runtime_anchor.quantile([1.0, 2.0, 3.0, 4.0, 5.0], 0.1), 1.4)

    def test_batches_pool_their_runs(self):
        pooled = onnx_runtime_anchor.pooled([{"runs_ms": [1.0, 2.0, 9.0], "median_ms": 2.0, "ort_version": "1.30.0"},
                                             {"runs_ms": [3.0, 4.0, 5.0], "median_ms": 4.0}])
        self.assertEqual(pooled["ort_ms"], 3.5)
        self.assertEqual(pooled["ort_batches_ms"], [2.0, 4.0])
        assert_close(self, pooled["ort_spread_ms"]["p10"], 1.5)
        assert_close(self, pooled["ort_spread_ms"]["p90"], 7.0)
        self.assertEqual(pooled["ort_version"], "1.30.0")


class CpuModelTest(unittest.TestCase):
    def test_the_first_model_name(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cpuinfo") as cpuinfo:
            cpuinfo.write("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor\n"
                          "\nprocessor\t: 1\nmodel name\t: Other\n")
            cpuinfo.flush()
            self.assertEqual(machine.cpu_model(cpuinfo.name), "AMD EPYC 9654 96-Core Processor")

    def test_an_unreadable_cpuinfo_still_names_something(self):
        self.assertTrue(machine.cpu_model("/nonexistent/cpuinfo"))


@unittest.skipUnless(shutil.which("node"), "node is not installed")
class OrtBenchScriptTest(unittest.TestCase):
    def test_a_directory_without_onnxruntime_is_exit_status_3(self):
        with tempfile.TemporaryDirectory() as folder:
            model = os.path.join(folder, "matmul_relu.onnx")
            save_matmul_model(model)
            completed = run_ort_bench(model, "--ort", folder)
        self.assertEqual(completed.returncode, 3)
        self.assertEqual(completed.stderr, f"ort_bench: onnxruntime-node is not installed in {folder} "
                                           "(scripts/setup.sh installs it)\n")

    def test_bad_arguments_are_one_line_errors(self):
        for arguments, message in [((), "usage: ort_bench.js MODEL.onnx"),
                                   (("m.onnx", "--threads", "two"), "--threads expects a non-negative integer"),
                                   (("m.onnx", "--fast", "1"), "unknown option '--fast'"),
                                   (("/nonexistent/m.onnx",), "/nonexistent/m.onnx: no such file")]:
            completed = run_ort_bench(*arguments)
            self.assertEqual(completed.returncode, 1, arguments)
            self.assertTrue(completed.stderr.startswith("ort_bench: " + message), completed.stderr)
            self.assertEqual(completed.stderr.count("\n"), 1, completed.stderr)

    @unittest.skipUnless(ort_is_installed(), "onnxruntime-node is not installed (scripts/setup.sh)")
    def test_times_float_and_integer_input_models(self):
        with tempfile.TemporaryDirectory() as folder:
            for save in (save_matmul_model, save_embedding_model):
                model = os.path.join(folder, save.__name__ + ".onnx")
                save(model)
                completed = run_ort_bench(model, "--threads", "1", "--runs", "4", "--warmup", "1")
                self.assertEqual(completed.returncode, 0, completed.stderr)
                result = json.loads(completed.stdout)
                self.assertEqual(result["ort_version"], "1.30.0")
                self.assertEqual(result["threads"], 1)
                self.assertEqual(len(result["runs_ms"]), 4)
                self.assertTrue(all(ms > 0 for ms in result["runs_ms"]), result)
                self.assertEqual(result["median_ms"], onnx_runtime_anchor.quantile(result["runs_ms"], 0.5))

    @unittest.skipUnless(ort_is_installed(), "onnxruntime-node is not installed (scripts/setup.sh)")
    def test_the_profile_trace_has_the_models_nodes(self):
        with tempfile.TemporaryDirectory() as folder:
            model = os.path.join(folder, "matmul_relu.onnx")
            save_matmul_model(model)
            trace = os.path.join(folder, "trace.json")
            completed = run_ort_bench(model, "--threads", "1", "--runs", "2", "--warmup", "0", "--profile", trace)
            self.assertEqual(completed.returncode, 0, completed.stderr)
            self.assertEqual(json.loads(completed.stdout)["profile"], trace)
            with open(trace) as stream:
                events = json.load(stream)
            self.assertEqual(sum(1 for e in events if e.get("name") == "model_run"), 2)
            kernels = {e["args"]["op_name"] for e in events
                       if e.get("cat") == "Node" and e["name"].endswith("_kernel_time")}
            self.assertIn("Relu", kernels)

    @unittest.skipUnless(ort_is_installed(), "onnxruntime-node is not installed (scripts/setup.sh)")
    def test_a_model_onnx_runtime_cannot_load_is_a_one_line_error(self):
        with tempfile.NamedTemporaryFile("w", suffix=".onnx") as model:
            model.write("not a protobuf")
            model.flush()
            completed = run_ort_bench(model.name)
        self.assertEqual(completed.returncode, 1)
        self.assertTrue(completed.stderr.startswith(f"ort_bench: {model.name}: ONNX Runtime cannot load it: "),
                        completed.stderr)
        self.assertEqual(completed.stderr.count("\n"), 1, completed.stderr)


if __name__ == "__main__":
    unittest.main()
