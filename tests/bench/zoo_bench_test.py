#!/usr/bin/python3
"""Tests of bench/zoo_bench.py: its table and JSON on fake `collage bench` results (--from-json),
and a real run on a small model (collage from COLLAGE_CLI; ONNX Runtime where scripts/setup.sh
installed it, else the ORT column must say it is unavailable)."""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from script_with_json import RESULTS, run_with_json, assert_close
from small_models import save_matmul_model

SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SCRIPT = os.path.join(SOURCE_DIR, "bench", "zoo_bench.py")
ORT_PACKAGE = os.path.join(os.environ.get("COLLAGE_ORT_DIR", os.path.join(SOURCE_DIR, "third_party", "ort")),
                           "node_modules", "onnxruntime-node", "package.json")


def ort_is_installed():
    return bool(shutil.which("node")) and os.path.exists(ORT_PACKAGE)


def bench_result(model, single, greedy, collage, torch_ms, ort_ms=None):
    best = min(single.values())
    result = {"model": model, "threads": 2, "cpu": "Test CPU 9000",
              "latency_ms": {**{"single:" + name: ms for name, ms in single.items()}, "greedy": greedy,
                             "collage": collage},
              "spread_ms": {"collage": {"p10": collage * 0.9, "p90": collage * 1.2}},
              "speedup": {"collage_vs_best_single": best / collage, "collage_vs_greedy": greedy / collage},
              "tuning_s": 12.5, "partitions": 7, "torch_eager_ms": torch_ms, "ort_ms": ort_ms}
    if ort_ms:
        result.update({"ort_spread_ms": {"p10": ort_ms * 0.95, "p90": ort_ms * 1.1},
                       "ort_batches_ms": [ort_ms * 0.98, ort_ms * 1.02], "ort_version": "1.30.0"})
    return result


def table_rows(table):
    """The table's lines from its header on, each split into cells."""
    lines = table.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("model "))
    return [line.split() for line in lines[start:]]


class ZooBenchTest(unittest.TestCase):
    def run_script(self, results):
        completed, combined = run_with_json(SCRIPT, "--from-json", RESULTS, results=results)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return completed.stdout, combined

    def test_rows_speedups_and_geometric_means(self):
        results = [bench_result("resnet50", {"onednn": 40.0, "native": 60.0}, 44.0, 36.0, 72.0, 45.0),
                   bench_result("gpt2_decoder", {"onednn": 20.0, "native": 25.0}, 22.0, 20.0, None, 16.0)]
        table, combined = self.run_script(results)
        self.assertTrue(table.startswith("cpu: Test CPU 9000, 2 threads\nort: ONNX Runtime 1.30.0 "), table)
        lines = table_rows(table)
        self.assertEqual(lines[0], ["model", "single:onednn", "single:native", "greedy", "collage", "vs", "best",
                                    "single", "vs", "greedy", "tuning", "s", "partitions", "torch", "vs", "torch", "ort",
                                    "vs", "ort"])
        self.assertEqual(lines[1], ["resnet50", "40.00", "60.00", "44.00", "36.00", "1.11x", "1.22x", "12.50", "7",
                                    "72.00", "2.00x", "45.00", "1.25x"])
        self.assertEqual(lines[2], ["gpt2_decoder", "20.00", "25.00", "22.00", "20.00", "1.00x", "1.10x", "12.50", "7",
                                    "-", "-", "16.00", "0.80x"])
        self.assertEqual(lines[3], ["geomean", "1.05x", "1.16x", "2.00x", "1.00x"])
        self.assertIn("resnet50: p10-p90 ms: collage 32.40-43.20, ort 42.75-49.50 (batch medians 44.10 / 45.90)",
                      table)
        geomean = combined["geomean_speedup"]
        assert_close(self, geomean["collage_vs_best_single"], math.sqrt(40.0 / 36.0 * 1.0))
        assert_close(self, geomean["collage_vs_greedy"], math.sqrt(44.0 / 36.0 * 22.0 / 20.0))
        assert_close(self, geomean["collage_vs_torch"], 2.0)
        assert_close(self, geomean["collage_vs_ort"], math.sqrt(45.0 / 36.0 * 16.0 / 20.0))
        assert_close(self, combined["models"][1]["speedup"]["collage_vs_ort"], 0.8)
        self.assertEqual(combined["cpu"], "Test CPU 9000")
        self.assertEqual(combined["ort"]["version"], "1.30.0")
        self.assertEqual([row["model"] for row in combined["models"]], ["resnet50", "gpt2_decoder"])
        assert_close(self, combined["models"][0]["speedup"]["collage_vs_torch"], 2.0)
        self.assertIsNone(combined["models"][1]["speedup"]["collage_vs_torch"])
        self.assertEqual(combined["backends"], ["onednn", "native"])
        self.assertEqual(combined["threads"], 2)

    def test_collage_graph_ratios_and_their_geometric_means(self):
        with_graph = bench_result("resnet50", {"onednn": 40.0, "native": 60.0}, 44.0, 50.0, 80.0)
        with_graph["latency_ms"]["collage-graph"] = 32.0
        with_graph["ort_ms"] = 48.0
        without_graph = bench_result("gpt2_decoder", {"onednn": 20.0, "native": 25.0}, 22.0, 20.0, None)
        table, combined = self.run_script([with_graph, without_graph])
        speedup = combined["models"][0]["speedup"]
        assert_close(self, speedup["collage_graph_vs_best_single"], 40.0 / 32.0)
        assert_close(self, speedup["collage_graph_vs_greedy"], 44.0 / 32.0)
        assert_close(self, speedup["collage_graph_vs_torch"], 80.0 / 32.0)
        assert_close(self, speedup["collage_graph_vs_ort"], 48.0 / 32.0)
        self.assertNotIn("collage_graph_vs_greedy", combined["models"][1]["speedup"])
        geomean = combined["geomean_speedup"]
        assert_close(self, geomean["collage_graph_vs_best_single"], 40.0 / 32.0)  # over the rows that have it
        self.assertIn("resnet50: collage-graph 32.00 ms, 1.56x collage's latency, 1.25x vs best single, "
                      "1.38x vs greedy, 2.50x vs torch, 1.50x vs ort;", table)
        self.assertIn("geomean of collage-graph: 1.25x vs best single, 1.38x vs greedy, 2.50x vs torch, 1.50x vs ort",
                      table)

    def test_head_to_head_ratios_and_their_geometric_mean(self):
        # Rounds (collage:ort) 10:12, 11:11, 9:10.8: ratios 1.2, 1.0, 1.2, median 1.2.
        matched = bench_result("resnet50", {"onednn": 40.0}, 44.0, 36.0, 72.0, 11.0)
        matched["head_to_head"] = {"plan": "collage", "runs": 10, "collage_ms": [10.0, 11.0, 9.0],
                                   "ort_ms": [12.0, 11.0, 10.8], "ort_vs_collage": 1.2}
        # No head to head (older results): ORT's latency over the final plan's, here collage-graph's.
        unmatched = bench_result("gpt2_decoder", {"onednn": 20.0}, 22.0, 20.0, None, 15.0)
        unmatched["latency_ms"]["collage-graph"] = 12.5
        table, combined = self.run_script([matched, unmatched])
        assert_close(self, combined["models"][0]["speedup"]["final_vs_ort"], 1.2)
        assert_close(self, combined["models"][1]["speedup"]["final_vs_ort"], 15.0 / 12.5)
        assert_close(self, combined["geomean_speedup"]["final_vs_ort"], 1.2)
        self.assertIn("resnet50: head to head, collage plan vs ort, ms per round (collage:ort) 10.00:12.00 / "
                      "11.00:11.00 / 9.00:10.80: ort / collage 1.20x\n", table)
        self.assertNotIn("gpt2_decoder: head to head", table)
        self.assertIn("geomean of the final plans vs ort: 1.20x\n", table)

    def test_a_model_tuned_beside_other_processes_is_flagged(self):
        crowded = bench_result("resnet50", {"onednn": 40.0}, 44.0, 36.0, 72.0)
        crowded["tuning_other_processes_cores"] = 0.93
        quiet = bench_result("gpt2_decoder", {"onednn": 20.0}, 22.0, 20.0, None)
        quiet["tuning_other_processes_cores"] = 0.05
        table, _ = self.run_script([crowded, quiet])
        self.assertIn("resnet50: tuned while other processes kept 0.93 cores busy: its measured costs may be too "
                      "slow (tune again on a quiet machine)\n", table)
        self.assertNotIn("gpt2_decoder: tuned while", table)

    def test_the_whole_region_comparison_of_each_model_that_has_one(self):
        compared = bench_result("mobilenet_v2", {"onednn": 4.8, "xnnpack": 4.1}, 4.8, 4.1, 20.0)
        compared["whole_regions"] = ["@main: searched 4.404 ms, all onednn 4.491 ms, all xnnpack 3.782 ms: "
                                     "all xnnpack is kept"]
        uncompared = bench_result("gpt2_decoder", {"onednn": 20.0}, 22.0, 20.0, None)
        table, _ = self.run_script([compared, uncompared])
        self.assertIn("mobilenet_v2: whole regions @main: searched 4.404 ms, all onednn 4.491 ms, all xnnpack "
                      "3.782 ms: all xnnpack is kept\n", table)
        self.assertNotIn("gpt2_decoder: whole regions", table)

    def test_without_ort_latencies_the_ort_column_says_unavailable(self):
        table, combined = self.run_script([bench_result("resnet50", {"onednn": 40.0}, 44.0, 36.0, 72.0)])
        self.assertIn("ort: unavailable: no ORT latency in the results\n", table)
        self.assertEqual(table_rows(table)[1][-2:], ["-", "-"])
        self.assertIsNone(combined["models"][0]["speedup"]["collage_vs_ort"])
        self.assertFalse(combined["ort"]["available"])

    def test_malformed_results_are_a_one_line_error(self):
        with tempfile.TemporaryDirectory() as folder:
            results_path = os.path.join(folder, "results.json")
            with open(results_path, "w") as file:
                json.dump([{"model": "x"}], file)
            completed = subprocess.run([sys.executable, SCRIPT, "--from-json", results_path], capture_output=True,
                                       text=True)
        self.assertEqual(completed.returncode, 1)
        self.assertTrue(completed.stderr.startswith("zoo_bench: error: "), completed.stderr)
        self.assertEqual(completed.stderr.count("\n"), 1, completed.stderr)


class MeasuringTest(unittest.TestCase):
    """zoo_bench.py's measuring path on a 64x64 MatMul+Relu model, with the native backend."""

    def measure(self, environment):
        collage = os.environ.get("COLLAGE_CLI")
        if not collage:
            self.skipTest("COLLAGE_CLI is not set")
        with tempfile.TemporaryDirectory() as zoo:
            save_matmul_model(os.path.join(zoo, "matmul_relu.onnx"))
            old_environment = dict(os.environ)
            os.environ.update(environment)
            try:
                completed, result = run_with_json(SCRIPT, "--zoo", zoo, "--models", "matmul_relu", "--collage",
                                                  collage, "--backends", "native", "--threads", "1", "--repeat", "3",
                                                  "--ort-runs", "3", "--ort-rounds", "3", "--no-torch", "--db",
                                                  os.path.join(zoo, "costs.sqlite"))
            finally:
                os.environ.clear()
                os.environ.update(old_environment)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return completed.stdout, result

    def test_ort_next_to_collage(self):
        table, result = self.measure({})
        row = result["models"][0]
        self.assertGreater(row["latency_ms"]["collage"], 0)
        self.assertGreaterEqual(row["tuning_other_processes_cores"], 0)  # collage bench reports it
        self.assertTrue(table.startswith("cpu: "), table)
        if not ort_is_installed():
            self.assertIn("ort: unavailable: ", table)
            self.assertIsNone(row["ort_ms"])
            return
        self.assertEqual(result["ort"]["version"], "1.30.0")
        self.assertEqual(len(row["ort_batches_ms"]), 3)
        self.assertGreater(row["ort_ms"], 0)
        match = row["head_to_head"]
        self.assertEqual(match["plan"], "collage")
        self.assertEqual(match["ort_ms"], row["ort_batches_ms"])
        self.assertEqual(len(match["collage_ms"]), 3)
        self.assertTrue(all(ms > 0 for ms in match["collage_ms"]), match)
        ratios = sorted(ort / collage for ort, collage in zip(match["ort_ms"], match["collage_ms"]))
        assert_close(self, match["ort_vs_collage"], ratios[1])
        assert_close(self, row["speedup"]["final_vs_ort"], ratios[1])
        self.assertIn("matmul_relu: head to head, collage plan vs ort, ms per round (collage:ort) ", table)
        self.assertLessEqual(row["ort_spread_ms"]["p10"], row["ort_ms"])
        self.assertLessEqual(row["ort_ms"], row["ort_spread_ms"]["p90"])
        assert_close(self, row["speedup"]["collage_vs_ort"], row["ort_ms"] / row["latency_ms"]["collage"])
        self.assertEqual(table_rows(table)[1][-2:], [f"{row['ort_ms']:.2f}", f"{row['speedup']['collage_vs_ort']:.2f}x"])

    def test_an_ort_directory_without_onnxruntime_is_reported_unavailable(self):
        with tempfile.TemporaryDirectory() as empty:
            table, result = self.measure({"COLLAGE_ORT_DIR": empty})
        self.assertIsNone(result["models"][0]["ort_ms"])
        self.assertNotIn("head_to_head", result["models"][0])
        self.assertIsNone(result["models"][0]["speedup"]["final_vs_ort"])
        self.assertFalse(result["ort"]["available"])
        if shutil.which("node"):
            self.assertIn(f"ort: unavailable: ort_bench: onnxruntime-node is not installed in {empty}", table)


if __name__ == "__main__":
    unittest.main()
