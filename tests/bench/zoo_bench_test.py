#!/usr/bin/python3
"""Tests of bench/zoo_bench.py's table and JSON on fake `collage bench` results (--from-json)."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

from script_with_json import RESULTS, run_with_json, assert_close

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "zoo_bench.py")


def bench_result(model, single, greedy, collage, torch_ms):
    best = min(single.values())
    return {"model": model, "threads": 2,
            "latency_ms": {**{"single:" + name: ms for name, ms in single.items()}, "greedy": greedy,
                           "collage": collage},
            "speedup": {"collage_vs_best_single": best / collage, "collage_vs_greedy": greedy / collage},
            "tuning_s": 12.5, "partitions": 7, "torch_eager_ms": torch_ms}


class ZooBenchTest(unittest.TestCase):
    def run_script(self, results):
        completed, combined = run_with_json(SCRIPT, "--from-json", RESULTS, results=results)
        self.assertEqual(completed.returncode, 0, completed.stderr)
        return completed.stdout, combined

    def test_rows_speedups_and_geometric_means(self):
        results = [bench_result("resnet50", {"onednn": 40.0, "native": 60.0}, 44.0, 36.0, 72.0),
                   bench_result("gpt2_decoder", {"onednn": 20.0, "native": 25.0}, 22.0, 20.0, None)]
        table, combined = self.run_script(results)
        lines = table.splitlines()
        self.assertEqual(lines[0].split(), ["model", "single:onednn", "single:native", "greedy", "collage", "vs", "best",
                                            "single", "vs", "greedy", "tuning", "s", "partitions", "torch", "vs",
                                            "torch"])
        self.assertEqual(lines[1].split(), ["resnet50", "40.00", "60.00", "44.00", "36.00", "1.11x", "1.22x", "12.50",
                                            "7", "72.00", "2.00x"])
        self.assertEqual(lines[2].split(), ["gpt2_decoder", "20.00", "25.00", "22.00", "20.00", "1.00x", "1.10x",
                                            "12.50", "7", "-", "-"])
        self.assertEqual(lines[3].split(), ["geomean", "1.05x", "1.16x", "2.00x"])
        geomean = combined["geomean_speedup"]
        assert_close(self, geomean["collage_vs_best_single"], math.sqrt(40.0 / 36.0 * 1.0))
        assert_close(self, geomean["collage_vs_greedy"], math.sqrt(44.0 / 36.0 * 22.0 / 20.0))
        assert_close(self, geomean["collage_vs_torch"], 2.0)
        self.assertEqual([row["model"] for row in combined["models"]], ["resnet50", "gpt2_decoder"])
        assert_close(self, combined["models"][0]["speedup"]["collage_vs_torch"], 2.0)
        self.assertIsNone(combined["models"][1]["speedup"]["collage_vs_torch"])
        self.assertEqual(combined["backends"], ["onednn", "native"])
        self.assertEqual(combined["threads"], 2)

    def test_collage_graph_ratios_and_their_geometric_means(self):
        with_graph = bench_result("resnet50", {"onednn": 40.0, "native": 60.0}, 44.0, 50.0, 80.0)
        with_graph["latency_ms"]["collage-graph"] = 32.0
        without_graph = bench_result("gpt2_decoder", {"onednn": 20.0, "native": 25.0}, 22.0, 20.0, None)
        table, combined = self.run_script([with_graph, without_graph])
        speedup = combined["models"][0]["speedup"]
        assert_close(self, speedup["collage_graph_vs_best_single"], 40.0 / 32.0)
        assert_close(self, speedup["collage_graph_vs_greedy"], 44.0 / 32.0)
        assert_close(self, speedup["collage_graph_vs_torch"], 80.0 / 32.0)
        self.assertNotIn("collage_graph_vs_greedy", combined["models"][1]["speedup"])
        geomean = combined["geomean_speedup"]
        assert_close(self, geomean["collage_graph_vs_best_single"], 40.0 / 32.0)  # over the rows that have it
        self.assertIn("resnet50: collage-graph 32.00 ms, 1.56x collage's latency, 1.25x vs best single, "
                      "1.38x vs greedy, 2.50x vs torch;", table)
        self.assertIn("geomean of collage-graph: 1.25x vs best single, 1.38x vs greedy, 2.50x vs torch", table)

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


if __name__ == "__main__":
    unittest.main()
