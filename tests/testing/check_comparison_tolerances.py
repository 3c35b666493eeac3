#!/usr/bin/python3
"""Lists every differential comparison site in the repository and checks that none accepts an
absolute error above 1e-3 of the expected output's magnitude.

    /usr/bin/python3 tests/testing/check_comparison_tolerances.py [ROOT]   check ROOT (default: the repository)
    /usr/bin/python3 tests/testing/check_comparison_tolerances.py --self-test

A site is a call of the shared comparison (CompareValues, CompareTensorLists and the test
helpers built on them), a gtest EXPECT_NEAR/ASSERT_NEAR, or a numpy/unittest closeness check.
  - The shared comparison bounds the error by relative * max |expected| + a floor; the floor
    must be AbsoluteFloor's (at most the smallest normal float, read from runtime/compare.cc),
    and a relative tolerance given at a site must be at most 1e-3 (except in the comparison's
    own unit tests, which exercise the rule itself).
  - EXPECT_NEAR's tolerance must be scaled by a magnitude (a product with a non-literal factor)
    or, for a literal expected value, at most 1e-3 of it.
  - numpy's allclose/isclose/assert_allclose must pass atol=0 (numpy's default atol is 1e-8
    absolute); unittest's assertAlmostEqual (7 decimal places, absolute) is refused.
Prints one line per site and exits 1 when any site breaks a rule.
"""

import os
import re
import sys
from dataclasses import dataclass
from typing import List, Optional

MAX_FRACTION = 1e-3
SMALLEST_NORMAL_FLOAT = 1.1754943508222875e-38

SOURCE_FOLDERS = ("src", "tests", "bench", "tools", "models", "scripts", "fuzz")
CPP_SUFFIXES = (".cc", ".h")
SHARED_RULE_CALLS = ("CompareValues", "CompareTensorLists", "OutputsMatch", "MatchesReference",
                     "ExecutableMatchesReference", "ExpectTensorNear", "ExpectTensorsNear", "TensorIs")
# Where the shared rule's tolerance argument sits (0-based), when a call passes one.
RELATIVE_ARGUMENT = {"CompareValues": 2, "CompareTensorLists": 2, "OutputsMatch": 3, "MatchesReference": 4,
                     "ExpectTensorNear": 3, "ExpectTensorsNear": 2, "TensorIs": 4}
RULE_TESTS = ("tests/runtime/compare_test.cc",)
DECLARATION = re.compile(r"^\s*(inline\s+)?(static\s+)?[\w:<>]+\s+(\w+)\(")
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


@dataclass
class Site:
    path: str
    line: int
    kind: str
    detail: str
    problem: Optional[str]


def call_arguments(text: str, open_paren: int) -> Optional[List[str]]:
    """The top-level comma-separated arguments of the call whose '(' is at open_paren."""
    depth = 0
    arguments, current = [], ""
    index = open_paren
    while index < len(text):
        char = text[index]
        if char in "([{":
            depth += 1
            if depth > 1:
                current += char
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                arguments.append(current.strip())
                return [argument for argument in arguments if argument]
            current += char
        elif char == "," and depth == 1:
            arguments.append(current.strip())
            current = ""
        elif char == '"':
            end = text.index('"', index + 1)
            while text[end - 1] == "\\":
                end = text.index('"', end + 1)
            current += text[index:end + 1]
            index = end
        else:
            current += char
        index += 1
    return None


def number(text: str) -> Optional[float]:
    text = text.strip()
    return float(text) if NUMBER.match(text) else None


def literal_relative(argument: str) -> Optional[float]:
    """The relative tolerance a site passes: a number, Tolerance{x} or std::nullopt (None)."""
    match = re.match(r"^(collage::)?Tolerance\s*\{\s*([^,}]*)\s*\}$", argument)
    if match:
        return number(match.group(2))
    return number(argument)


def check_shared_rule(name: str, arguments: List[str], path: str) -> tuple:
    position = RELATIVE_ARGUMENT.get(name)
    if position is None or position >= len(arguments):
        return "default tolerance", None
    argument = arguments[position]
    if argument in ("std::nullopt", "tolerance", "relative", "relative_tolerance"):
        return f"tolerance {argument}", None
    if re.search(r"Tolerance\s*\{[^}]*,", argument):
        return f"tolerance {argument}", "a Tolerance has no absolute part"
    relative = literal_relative(argument)
    if relative is None:
        return f"tolerance {argument}", None
    if relative > MAX_FRACTION and path not in RULE_TESTS:
        return f"relative {relative:g}", f"relative tolerance {relative:g} exceeds {MAX_FRACTION:g}"
    return f"relative {relative:g}", None


def check_near(arguments: List[str]) -> tuple:
    if len(arguments) != 3:
        return "unparsed", "cannot read the three arguments"
    actual, expected, tolerance = arguments
    detail = f"tolerance {tolerance}"
    absolute = number(tolerance)
    if absolute is None:
        factors = [factor.strip() for factor in re.split(r"\*", tolerance)]
        if len(factors) >= 2 and any(number(factor) is None for factor in factors) and "+" not in tolerance:
            return detail + " (scaled)", None
        return detail, "the tolerance is neither a literal nor a multiple of a magnitude"
    magnitudes = [abs(value) for value in (number(actual), number(expected)) if value is not None]
    if not magnitudes:
        return detail, "an absolute tolerance against a value of unknown magnitude"
    if absolute > MAX_FRACTION * max(magnitudes):
        return detail, f"{absolute:g} exceeds {MAX_FRACTION:g} of {max(magnitudes):g}"
    return detail + f" (of {max(magnitudes):g})", None


def cpp_sites(path: str, text: str) -> List[Site]:
    sites = []
    pattern = re.compile(r"\b(" + "|".join(SHARED_RULE_CALLS) + r"|EXPECT_NEAR|ASSERT_NEAR)\s*\(")
    for match in pattern.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        line = text[line_start:text.find("\n", match.start())]
        if line.lstrip().startswith("//"):
            continue
        declaration = DECLARATION.match(line)
        if declaration and declaration.group(3) == match.group(1):
            continue
        arguments = call_arguments(text, match.end() - 1)
        if arguments is None:
            continue
        line_number = text.count("\n", 0, match.start()) + 1
        name = match.group(1)
        if name in ("EXPECT_NEAR", "ASSERT_NEAR"):
            detail, problem = check_near(arguments)
        else:
            detail, problem = check_shared_rule(name, arguments, path)
        sites.append(Site(path, line_number, name, detail, problem))
    return sites


def python_sites(path: str, text: str) -> List[Site]:
    sites = []
    for match in re.finditer(r"\b(allclose|isclose|assert_allclose|assertAlmostEqual)\s*\(", text):
        arguments = call_arguments(text, match.end() - 1) or []
        line_number = text.count("\n", 0, match.start()) + 1
        atol = [argument for argument in arguments if re.match(r"^atol\s*=", argument)]
        problem = None
        if match.group(1) == "assertAlmostEqual":
            problem = "assertAlmostEqual compares absolutely"
        elif not atol or number(atol[0].split("=", 1)[1]) != 0.0:
            problem = "atol must be 0 (numpy's default is absolute)"
        sites.append(Site(path, line_number, match.group(1), ", ".join(arguments[2:]) or "defaults", problem))
    return sites


def floor_problem(root: str) -> Optional[str]:
    """Why runtime/compare.cc's AbsoluteFloor may exceed the smallest normal float, if it may."""
    with open(os.path.join(root, "src", "runtime", "compare.cc"), encoding="utf-8") as file:
        text = file.read()
    match = re.search(r"double AbsoluteFloor\(DType dtype\) \{(.*?)\n\}", text, re.S)
    if match is None:
        return "AbsoluteFloor not found in src/runtime/compare.cc"
    for value in re.findall(r"return ([^;]+);", match.group(1)):
        if value.strip() in ("std::numeric_limits<float>::min()", "std::numeric_limits<double>::min()", "0.0", "0"):
            continue
        literal = number(value)
        if literal is None or literal > SMALLEST_NORMAL_FLOAT:
            return f"AbsoluteFloor returns {value.strip()}, above the smallest normal float"
    return None


def scan(root: str) -> List[Site]:
    sites = []
    for folder in SOURCE_FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for file_name in sorted(files):
                path = os.path.join(directory, file_name)
                relative = os.path.relpath(path, root)
                if relative == os.path.relpath(os.path.abspath(__file__), root) and root == repository_root():
                    continue
                if file_name.endswith(CPP_SUFFIXES):
                    with open(path, encoding="utf-8", errors="replace") as file:
                        sites += cpp_sites(relative, file.read())
                elif file_name.endswith(".py"):
                    with open(path, encoding="utf-8", errors="replace") as file:
                        sites += python_sites(relative, file.read())
    return sorted(sites, key=lambda site: (site.path, site.line))


def repository_root() -> str:
    return os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def report(root: str) -> int:
    sites = scan(root)
    problems = [site for site in sites if site.problem]
    for site in sites:
        verdict = f"VIOLATION: {site.problem}" if site.problem else "ok"
        print(f"{site.path}:{site.line}: {site.kind}: {site.detail}: {verdict}")
    floor = floor_problem(root)
    print(f"AbsoluteFloor: {floor or 'at most the smallest normal float, ok'}")
    print(f"{len(sites)} comparison sites, {len(problems) + (1 if floor else 0)} violations")
    return 1 if problems or floor else 0


def self_test() -> int:
    """Negative controls: snippets that break each rule must be flagged, fixed ones must not."""
    cases = [
        ("EXPECT_NEAR(out, expected, 1e-4);", True),
        ("EXPECT_NEAR(sum, 1.0, 1e-2);", True),
        ("EXPECT_NEAR(sum, 1.0, 1e-6);", False),
        ("EXPECT_NEAR(x, y, 1e-6 * std::fabs(y));", False),
        ("EXPECT_NEAR(x, y, 1e-12 + 1e-9 * y);", True),
        ("CompareValues(a, b, Tolerance{1e-4, 1e-4});", True),
        ("CompareValues(a, b, Tolerance{1e-2});", True),
        ("CompareValues(a, b, Tolerance{1e-5});", False),
        ("OutputsMatch(model, result, expected, 1e-3);", False),
        ("OutputsMatch(model, result, expected, 5e-2);", True),
        ("CompareValues(a, b);", False),
    ]
    failures = 0
    for snippet, flagged in cases:
        sites = cpp_sites("self_test.cc", snippet)
        got = len(sites) == 1 and sites[0].problem is not None
        if len(sites) != 1 or got != flagged:
            print(f"self-test: {snippet!r}: expected {'a violation' if flagged else 'no violation'}, got "
                  f"{[site.problem for site in sites]}")
            failures += 1
    for snippet, flagged in (("np.allclose(a, b)", True), ("np.allclose(a, b, rtol=1e-4, atol=0)", False),
                             ("self.assertAlmostEqual(a, b)", True)):
        sites = python_sites("self_test.py", snippet)
        if len(sites) != 1 or (sites[0].problem is not None) != flagged:
            print(f"self-test: {snippet!r}: expected {'a violation' if flagged else 'no violation'}")
            failures += 1
    print(f"self-test: {failures} failures in {len(cases) + 3} cases")
    return 1 if failures else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else repository_root()
    return report(root)


if __name__ == "__main__":
    sys.exit(main())
