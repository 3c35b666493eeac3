#!/usr/bin/env python3
"""scripts/check_layers.py on small made-up trees: what it accepts and, as negative controls,
every kind of violation it must report."""
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "check_layers.py")

# base <- middle <- top; middle uses hidden privately, so a header of middle cannot include it,
# nor can top reach it through middle.
TABLE = """base | base |  |
hidden | hidden | base |
middle | middle middle/inner | base | hidden
top | top | middle |
"""


class CheckLayersTest(unittest.TestCase):
    def run_checker(self, files, table=TABLE, public_files=None):
        with tempfile.TemporaryDirectory() as root:
            source = os.path.join(root, "src")
            public = os.path.join(root, "include")
            for folder, tree in ((source, files), (public, public_files or {})):
                for path, text in tree.items():
                    os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
                    with open(os.path.join(folder, path), "w", encoding="utf-8") as file:
                        file.write(text)
            table_path = os.path.join(root, "layers.txt")
            with open(table_path, "w", encoding="utf-8") as file:
                file.write(table)
            public_arguments = ["--public", public, "--public-layer", "top", "--public-header", "api/error.h=base"]
            result = subprocess.run([sys.executable, CHECKER, "--table", table_path, "--source", source,
                                     *(public_arguments if public_files else [])],
                                    capture_output=True, text=True, check=False)
            return result.returncode, result.stderr

    def clean_tree(self):
        return {
            "base/a.h": "#pragma once\n#include <vector>\n",
            "hidden/h.h": '#include "base/a.h"\n',
            "middle/m.h": '#include "base/a.h"\n',
            "middle/m.cc": '#include "middle/m.h"\n#include "hidden/h.h"\n#include "generated.h"\n',
            "middle/inner/i.h": '#include "middle/m.h"\n',
            "top/t.cc": '#include "middle/inner/i.h"\n#include "base/a.h"\n',
        }

    def test_downward_includes_pass(self):
        status, errors = self.run_checker(self.clean_tree())
        self.assertEqual(status, 0, errors)
        self.assertEqual(errors, "")

    def test_include_of_a_higher_layer_fails(self):
        tree = self.clean_tree()
        tree["base/b.cc"] = '#include "base/a.h"\n#include "top/t.h"\n'
        tree["top/t.h"] = "#pragma once\n"
        status, errors = self.run_checker(tree)
        self.assertEqual(status, 1)
        self.assertIn("src/base/b.cc:2: includes top/t.h of layer 'top'", errors)
        self.assertEqual(len(errors.strip().splitlines()), 1, errors)

    def test_public_headers_belong_to_their_layer(self):
        public = {"api/api.h": "#pragma once\n", "api/error.h": "#pragma once\n"}
        tree = self.clean_tree()
        tree["base/e.h"] = '#include "api/error.h"\n'
        tree["top/u.cc"] = '#include "api/api.h"\n'
        status, errors = self.run_checker(tree, public_files=public)
        self.assertEqual(status, 0, errors)
        # Negative control: a lower layer including the API's header.
        tree["middle/n.cc"] = '#include "api/api.h"\n'
        status, errors = self.run_checker(tree, public_files=public)
        self.assertEqual(status, 1)
        self.assertIn("src/middle/n.cc:1: includes api/api.h of layer 'top'", errors)

    def test_header_including_a_private_dependency_fails(self):
        tree = self.clean_tree()
        tree["middle/m.h"] = '#include "hidden/h.h"\n'
        status, errors = self.run_checker(tree)
        self.assertEqual(status, 1)
        self.assertIn("src/middle/m.h:1: includes hidden/h.h of layer 'hidden', which this header", errors)

    def test_private_dependency_does_not_reach_further_up(self):
        tree = self.clean_tree()
        tree["top/u.cc"] = '#include "hidden/h.h"\n'
        status, errors = self.run_checker(tree)
        self.assertEqual(status, 1)
        self.assertIn("src/top/u.cc:1: includes hidden/h.h", errors)

    def test_folder_without_layer_fails(self):
        tree = self.clean_tree()
        tree["stray/s.cc"] = "int s;\n"
        status, errors = self.run_checker(tree)
        self.assertEqual(status, 1)
        self.assertIn("src/stray: folder belongs to no layer", errors)

    def test_cycle_fails(self):
        status, errors = self.run_checker(self.clean_tree(), TABLE.replace("base | base |  |", "base | base | top |"))
        self.assertEqual(status, 1)
        self.assertIn("the layers form a cycle", errors)

    def test_unknown_layer_fails(self):
        status, errors = self.run_checker(self.clean_tree(), TABLE + "extra | extra | nowhere |\n")
        self.assertEqual(status, 1)
        self.assertIn("depends on unknown layer 'nowhere'", errors)


if __name__ == "__main__":
    unittest.main()
