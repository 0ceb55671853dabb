"""Every exception class of the package lives in errors.py, unless it is private."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import deepresearch

PACKAGE = Path(deepresearch.__file__).parent
BUILTIN_EXCEPTIONS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type)
    and issubclass(value, BaseException)
    # Warnings are issued, not raised; they live next to the code that warns.
    and not issubclass(value, Warning)
}


def _classes() -> list[tuple[str, str, set[str]]]:
    """(module path, class name, base names) for each class defined in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases}
                found.append((str(path.relative_to(PACKAGE)), node.name, bases))
    return found


def _exception_classes() -> list[tuple[str, str]]:
    classes = _classes()
    exceptions = set(BUILTIN_EXCEPTIONS)
    grew = True
    while grew:  # a class is an exception when one of its bases is
        grew = False
        for _, name, bases in classes:
            if name not in exceptions and bases & exceptions:
                exceptions.add(name)
                grew = True
    return [(path, name) for path, name, _ in classes if name in exceptions - BUILTIN_EXCEPTIONS]


def test_exception_classes_live_in_errors_or_are_private() -> None:
    misplaced = [
        f"{path}:{name}"
        for path, name in _exception_classes()
        if path != "errors.py" and not name.startswith("_")
    ]
    assert misplaced == []


def test_the_walk_finds_the_errors() -> None:
    found = _exception_classes()
    assert ("errors.py", "ProviderSetupError") in found
    assert ("providers/structured.py", "_AdaptedRequest") in found


def test_the_errors_docstring_draws_every_error() -> None:
    from deepresearch import errors

    drawn = {line.strip(" │├└─").split(" ")[0] for line in (errors.__doc__ or "").splitlines()}
    defined = {name for path, name in _exception_classes() if path == "errors.py"}
    assert defined <= drawn
