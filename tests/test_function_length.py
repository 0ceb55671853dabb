"""No function in the package is longer than 60 lines (issue 20): a longer one is split
into named steps. Counted from the ``def`` line to the last line of the body."""

from __future__ import annotations

import ast
from pathlib import Path

import deepresearch

LIMIT = 60
PACKAGE = Path(deepresearch.__file__).parent


def _functions(tree: ast.AST, prefix: str = "") -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = f"{prefix}{node.name}"
            found.append((name, (node.end_lineno or node.lineno) - node.lineno + 1))
            found += _functions(node, f"{name}.")
        elif isinstance(node, ast.ClassDef):
            found += _functions(node, f"{prefix}{node.name}.")
        else:
            found += _functions(node, prefix)
    return found


def long_functions() -> dict[str, int]:
    out: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for name, lines in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            if lines > LIMIT:
                out[f"{where}:{name}"] = lines
    return out


def test_no_function_is_longer_than_the_limit() -> None:
    too_long = long_functions()
    assert not too_long, f"functions over {LIMIT} lines: {too_long}"


def test_the_walk_finds_nested_and_method_functions() -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(LIMIT))
    source = f"class A:\n    def f(self):\n{body}\n\n\ndef g():\n    def h():\n        pass\n"
    names = dict(_functions(ast.parse(source)))
    assert names == {"A.f": LIMIT + 1, "g": 3, "g.h": 2}
