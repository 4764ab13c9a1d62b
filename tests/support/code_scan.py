"""What the structure checks that read our code share (tests/test_house_*.py and the status
writer's check): where an offence is, which name a call calls, and the modules of a tree (the
real one, or a copy in which a test plants a violation)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Offence:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def callee(node: ast.Call) -> str | None:
    """The name a call calls: `f(...)` and `x.f(...)` both give `f`."""
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def modules(root: Path, *tops: str) -> Iterator[tuple[str, Path]]:
    """(path relative to `root`, path) of every Python module under `root/top`, in order."""
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            yield path.relative_to(root).as_posix(), path
