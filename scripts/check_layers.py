#!/usr/bin/env python3
"""Fails when a file under src/ includes a header its layer does not reach.

The layer table is the one the build declares (cmake/CollageLayers.cmake writes it): one line
per layer, `name | folders | public layers | private layers`. A header of layer L may include
headers of L and of the layers L reaches through PUBLIC dependencies (transitively, as CMake
propagates them); a source file may also include those its PRIVATE dependencies reach. Every
folder under src/ that holds a .h or .cc must belong to exactly one layer, and the declared
graph must have no cycle.

The public headers (--public include) are a layer's too: each belongs to --public-layer (the
API's), except those --public-header FILE=LAYER assigns to another (the error classes every
layer throws), so a file of a lower layer cannot include the API.

Usage: check_layers.py --table build/generated/layers.txt --source src
           [--public include --public-layer api --public-header collage/error.h=support ...]
Prints one line per violation and exits 1, or exits 0 when every include runs down.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


class Layer:
    def __init__(self, name, folders, public, private):
        self.name, self.folders, self.public, self.private = name, folders, public, private


def read_table(path):
    layers = {}
    with open(path, encoding="utf-8") as table:
        for number, line in enumerate(table, 1):
            if not line.strip():
                continue
            fields = [field.split() for field in line.split("|")]
            if len(fields) != 4 or len(fields[0]) != 1:
                raise SystemExit(f"{path}:{number}: expected 'name | folders | public | private'")
            name = fields[0][0]
            if name in layers:
                raise SystemExit(f"{path}:{number}: layer '{name}' declared twice")
            layers[name] = Layer(name, fields[1], fields[2], fields[3])
    return layers


def find_cycle(layers):
    """A list of layer names forming a dependency cycle, or None."""
    state = {}

    def visit(name, path):
        state[name] = "open"
        for dependency in layers[name].public + layers[name].private:
            if state.get(dependency) == "open":
                return path[path.index(dependency):] + [dependency]
            if dependency not in state:
                cycle = visit(dependency, path + [dependency])
                if cycle:
                    return cycle
        state[name] = "done"
        return None

    for name in layers:
        if name not in state:
            cycle = visit(name, [name])
            if cycle:
                return cycle
    return None


def public_closure(layers, name, memo):
    if name not in memo:
        reached = {name}
        for dependency in layers[name].public:
            reached |= public_closure(layers, dependency, memo)
        memo[name] = reached
    return memo[name]


def check(table_path, source_root, public_root=None, public_layer=None, public_headers=None):
    public_headers = public_headers or {}
    layers = read_table(table_path)
    problems = []
    for layer in layers.values():
        for dependency in layer.public + layer.private:
            if dependency not in layers:
                problems.append(f"{table_path}: layer '{layer.name}' depends on unknown layer '{dependency}'")
    if problems:
        return problems
    cycle = find_cycle(layers)
    if cycle:
        return [f"{table_path}: the layers form a cycle: {' -> '.join(cycle)}"]

    folder_layer = {}
    for layer in layers.values():
        for folder in layer.folders:
            if folder in folder_layer:
                problems.append(f"{table_path}: folder src/{folder} is in layers '{folder_layer[folder]}' and '{layer.name}'")
            folder_layer[folder] = layer.name
    memo = {}
    reach_header = {}
    reach_source = {}
    for layer in layers.values():
        reach_header[layer.name] = public_closure(layers, layer.name, memo)
        reach_source[layer.name] = set(reach_header[layer.name])
        for dependency in layer.private:
            reach_source[layer.name] |= public_closure(layers, dependency, memo)

    for directory, _, files in sorted(os.walk(source_root)):
        folder = os.path.relpath(directory, source_root).replace(os.sep, "/")
        code = sorted(f for f in files if f.endswith((".h", ".cc")))
        if not code:
            continue
        layer = folder_layer.get(folder)
        if layer is None:
            problems.append(f"src/{folder}: folder belongs to no layer (add it to a collage_add_layer)")
            continue
        for file_name in code:
            reach = reach_header[layer] if file_name.endswith(".h") else reach_source[layer]
            path = os.path.join(directory, file_name)
            with open(path, encoding="utf-8") as source:
                for number, line in enumerate(source, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    if os.path.isfile(os.path.join(source_root, match.group(1))):
                        included_layer = folder_layer.get(os.path.dirname(match.group(1)))
                    elif public_root and os.path.isfile(os.path.join(public_root, match.group(1))):
                        included_layer = public_headers.get(match.group(1), public_layer)
                    else:
                        continue
                    if included_layer is None or included_layer in reach:
                        continue
                    kind = "header" if file_name.endswith(".h") else "source"
                    problems.append(
                        f"src/{folder}/{file_name}:{number}: includes {match.group(1)} of layer '{included_layer}', "
                        f"which this {kind} of layer '{layer}' does not reach")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", required=True, help="the layer table the build wrote")
    parser.add_argument("--source", required=True, help="the src/ folder")
    parser.add_argument("--public", help="the public headers' folder (include/)")
    parser.add_argument("--public-layer", help="the layer of the public headers")
    parser.add_argument("--public-header", action="append", default=[], metavar="FILE=LAYER",
                        help="a public header of another layer")
    arguments = parser.parse_args()
    public_headers = dict(entry.split("=", 1) for entry in arguments.public_header)
    problems = check(arguments.table, arguments.source, arguments.public, arguments.public_layer, public_headers)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
