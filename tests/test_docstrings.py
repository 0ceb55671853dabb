"""Every public class, function and method in the package has a docstring (issue 20):
names not starting with ``_``, methods of public classes, ``@overload`` stubs left out.
Pydantic models need a class docstring; their fields do not."""

from __future__ import annotations

import ast
from pathlib import Path

import deepresearch

PACKAGE = Path(deepresearch.__file__).parent
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _is_overload(node: Definition) -> bool:
    return any(
        (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == "overload"
        for d in node.decorator_list
    )


def _undocumented(body: list[ast.stmt], prefix: str = "") -> list[str]:
    found: list[str] = []
    for node in body:
        if isinstance(node, (ast.If, ast.Try)):  # definitions under TYPE_CHECKING, try/except
            found += _undocumented(node.body, prefix)
        if not isinstance(node, Definition) or node.name.startswith("_") or _is_overload(node):
            continue
        if ast.get_docstring(node) is None:
            found.append(f"{prefix}{node.name}")
        if isinstance(node, ast.ClassDef):
            found += _undocumented(node.body, f"{prefix}{node.name}.")
    return found


def undocumented() -> list[str]:
    out: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [f"{where}:{name}" for name in _undocumented(tree.body)]
    return out


def test_every_public_definition_has_a_docstring() -> None:
    missing = undocumented()
    assert not missing, f"public definitions without a docstring: {missing}"


def test_the_walk_finds_methods_and_skips_private_and_overloads() -> None:
    source = '''
class A:
    def f(self): pass
    def _g(self): pass
    @overload
    def h(self, x: int) -> int: ...
    def h(self, x): """Documented."""
class _B:
    def f(self): pass
def c():
    """Documented."""
    def inner(): pass
if TYPE_CHECKING:
    def d(): pass
'''
    assert _undocumented(ast.parse(source).body) == ["A", "A.f", "d"]
