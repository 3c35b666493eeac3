"""The package as a user meets it: the type stubs cover the extension module, and the quickstart
example runs and prints a placement."""

import ast
import os
import subprocess
import sys

import collage
from conftest import BUILD, REPOSITORY


def stub_names(path):
    tree = ast.parse(open(path).read())
    return {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}


def test_the_stubs_name_every_public_member_of_the_extension():
    stubs = os.path.join(os.path.dirname(collage.__file__), "_collage.pyi")
    assert os.path.exists(os.path.join(os.path.dirname(collage.__file__), "py.typed"))
    names = {name for name in dir(collage._collage) if not name.startswith("__")}
    assert names <= stub_names(stubs), names - stub_names(stubs)


def test_the_package_exports_what_it_documents():
    for name in collage.__all__:
        assert hasattr(collage, name), name


def test_the_quickstart_compiles_runs_and_prints_a_placement():
    environment = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    result = subprocess.run(["/usr/bin/python3", os.path.join(REPOSITORY, "examples", "python", "quickstart.py")],
                            capture_output=True, text=True, env=environment, timeout=600)
    assert result.returncode == 0, result.stderr
    assert "partitions" in result.stdout
    assert "matches torch" in result.stdout
