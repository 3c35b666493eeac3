#!/usr/bin/python3
"""Tests of bench/onednn_gemm_share.py: reading oneDNN's verbose lines and the profile, and one
real run on a small model when the collage CLI (COLLAGE_CLI) has the onednn backend."""

import os
import subprocess
import sys
import tempfile
import unittest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
from script_with_json import run_with_json, assert_close
from small_models import save_matmul_model

SCRIPT = os.path.join(BENCH, "onednn_gemm_share.py")
sys.path.insert(0, BENCH)
import onednn_gemm_share  # noqa: E402

CONVOLUTION = ("onednn_verbose,exec,cpu,convolution,jit:avx2,forward_inference,src_f32::blocked:aBcd8b:f0,,"
               "alg:convolution_direct,mb1_ic8oc8_ih4oh4kh3sh1dh0ph1_iw4ow4kw3sw1dw0pw1,{}")
WEIGHT_REORDER = "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:abcd:f0,,,8x8x3x3,{}"
ACTIVATION_REORDER = "onednn_verbose,exec,cpu,reorder,jit:uni,undef,src_f32::blocked:aBcd8b:f0,,,1x8x4x4,{}"
MATMUL_3X = "onednn_verbose,primitive,exec,cpu,matmul,brg:avx512_core,undef,src_f32::blocked:ab:f0,,,4x8:8x4,{}"


def profile(total_median_ms, total_mean_ms=9.0):
    return ["partition   backend  ops  runs  mean ms  median ms   share",
            "onednn_0    onednn     3     3    1.000      1.000   100.0%",
            f"total                  3     {total_mean_ms:10.3f}  {total_median_ms:10.3f}  100.0%"]


def verbose_run(runs, convolution_ms, reorder_ms, total_mean_ms=9.0):
    """oneDNN's lines for `runs` runs (the warm-up run first) of a model of a convolution, a
    reorder and a convolution, after one weight reorder while compiling, then the profile."""
    lines = ["onednn_verbose,info,oneDNN v2.6.3 (commit N/A)", WEIGHT_REORDER.format(5.0)]
    for run in range(runs):
        lines += [CONVOLUTION.format(convolution_ms[run]), ACTIVATION_REORDER.format(reorder_ms),
                  CONVOLUTION.format(convolution_ms[run]), "unrelated output"]
    return lines + profile(total_mean_ms, total_mean_ms)


class ParsingTest(unittest.TestCase):
    def test_executions_of_both_verbose_formats(self):
        executions = onednn_gemm_share.primitive_executions(
            [CONVOLUTION.format(0.5), MATMUL_3X.format(0.25), "onednn_verbose,create:cache_miss,cpu,reorder,x,1.0",
             "onednn_verbose,exec,cpu,reorder,cut short"])
        self.assertEqual([(kind, ms) for kind, _, ms in executions], [("convolution", 0.5), ("matmul", 0.25)])

    def test_executions_per_run_from_two_repeat_counts(self):
        # One weight reorder while compiling, then the warm-up run and the repeats, 3 executions each.
        self.assertEqual(onednn_gemm_share.executions_per_run(1 + 2 * 3, 1 + 21 * 3, 1, 20), 3)
        with self.assertRaisesRegex(ValueError, "not a whole number per run"):
            onednn_gemm_share.executions_per_run(7, 65, 1, 20)

    def test_per_run_time_is_of_the_repeated_runs_only(self):
        # The compile-time weight reorder (5 ms) and the warm-up run's convolutions (9 ms) are no repeat's.
        executions = onednn_gemm_share.primitive_executions(verbose_run(4, [9.0, 1.0, 3.0, 1.5], 0.25))
        by_kind = onednn_gemm_share.per_run_milliseconds_by_kind(executions, 3, 3)
        self.assertEqual(by_kind, {"convolution": 3.0, "reorder": 0.25})

    def test_runs_executing_different_primitives_are_an_error(self):
        lines = verbose_run(3, [1.0] * 3, 0.25)
        lines[-5], lines[-6] = lines[-6], lines[-5]  # the last run's reorder and second convolution
        with self.assertRaisesRegex(ValueError, "different oneDNN primitives at position 1"):
            onednn_gemm_share.per_run_milliseconds_by_kind(onednn_gemm_share.primitive_executions(lines), 3, 2)

    def test_row_takes_medians_over_rounds(self):
        verbose_rounds = [verbose_run(3, [1.0] * 3, 0.25), verbose_run(3, [2.0] * 3, 0.25),
                          verbose_run(3, [1.5] * 3, 0.75)]
        row = onednn_gemm_share.share_row("tiny", [profile(4.0), profile(5.0), profile(4.5)], verbose_rounds, 2, 3)
        assert_close(self, row["total_ms"], 4.5)
        assert_close(self, row["gemm_ms"], 3.0)
        assert_close(self, row["other_ms"], 0.25)
        self.assertEqual(row["largest_other"], "reorder")
        assert_close(self, row["outside_ms"], 1.25)
        assert_close(self, row["ceiling_vs_onednn"], 1.5)
        # Per run: 2 convolutions and a reorder; the means per round 2.25, 4.25 and 3.75 ms.
        assert_close(self, row["verbose_onednn_ms"], 3.75)
        assert_close(self, row["verbose_total_ms"], 9.0)

    def test_primitives_longer_than_their_runs_are_an_error(self):
        # 2 x 4 ms + 0.25 ms of primitives per run against 8 ms per run in the same runs' profile.
        with self.assertRaisesRegex(ValueError, r"took 8.250 ms per run, more than the runs' 8.000 ms"):
            onednn_gemm_share.share_row("tiny", [profile(4.0)], [verbose_run(3, [4.0] * 3, 0.25, 8.0)], 2, 3)
        # Control: the same primitives within 8.25 ms runs are consistent.
        row = onednn_gemm_share.share_row("tiny", [profile(4.0)], [verbose_run(3, [4.0] * 3, 0.25, 8.25)], 2, 3)
        assert_close(self, row["verbose_onednn_ms"], 8.25)

    def test_a_run_without_onednn_primitives_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "no oneDNN primitive ran"):
            onednn_gemm_share.share_row("tiny", [profile(1.0)], [["no verbose lines"]], 2, 0)


class ScriptTest(unittest.TestCase):
    def run_script(self, zoo, *extra):
        return run_with_json(SCRIPT, "--zoo", zoo, *extra)

    def test_a_missing_model_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as zoo:
            completed, _ = self.run_script(zoo, "--models", "absent", "--collage", sys.executable)
            self.assertEqual(completed.returncode, 1)
            self.assertRegex(completed.stderr, r"^onednn_gemm_share: error: .*absent.onnx: no such model")

    def test_measures_a_matmul_model(self):
        collage = os.environ.get("COLLAGE_CLI")
        if not collage:
            self.skipTest("COLLAGE_CLI is not set")
        backends = subprocess.run([collage, "backends"], capture_output=True, text=True).stdout
        if "onednn" not in backends:
            self.skipTest("collage has no onednn backend")
        with tempfile.TemporaryDirectory() as zoo:
            save_matmul_model(os.path.join(zoo, "matmul_relu.onnx"))
            completed, result = self.run_script(zoo, "--models", "matmul_relu", "--collage", collage, "--threads", "1",
                                                "--repeat", "3", "--rounds", "1")
            self.assertEqual(completed.returncode, 0, completed.stderr)
            row = result["models"][0]
            self.assertGreater(row["gemm_ms"], 0)
            self.assertTrue({"matmul", "inner_product"} & set(row["ms_by_kind"]), row["ms_by_kind"])
            self.assertGreater(row["total_ms"], 0)
            # The GEMM-like primitives, and all of oneDNN's, ran within the runs that timed them.
            self.assertLessEqual(row["verbose_onednn_ms"], row["verbose_total_ms"] + onednn_gemm_share.PROFILE_ROUNDING_MS)
            self.assertGreater(row["verbose_onednn_ms"], 0)
            self.assertIn("matmul_relu", completed.stdout)
            self.assertIn("geomean ceiling over single:onednn", completed.stdout)
            self.assertTrue(completed.stdout.startswith(f"cpu: {result['cpu']}, 1 threads\n"), completed.stdout)


if __name__ == "__main__":
    unittest.main()
