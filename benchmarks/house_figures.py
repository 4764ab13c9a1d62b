"""The figures of the house's shape (issue 25), reproducible: `python benchmarks/house_figures.py`.

- cycles: strongly connected groups of agent_core modules, function-level imports counted and
  `if TYPE_CHECKING:` imports not (grimp reads every import statement of a module);
- sql_outside_storage: modules outside agent_core/storage/ that import the schema, or take from
  SQLAlchemy anything beyond `Connection` / `Engine`;
- any: annotations in agent_core and desktop that spell `Any`, type aliases that do counted at
  each use;
- big_modules: modules over 500 lines (migrations aside), but for one whose docstring says
  why it is one concept (`WHOLE`: cut by concept, not by count);
- fixed_waits: `time.sleep(` and `qtbot.wait(` anywhere under tests/;
- layers: agent_core's top-level units, and those that no layers contract names;
- mypy_strict: errors `mypy --strict agent_core` reports (with --mypy: it takes a minute).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAX_LINES = 500
WHOLE = "Kept whole past 500 lines:"  # a module's docstring then says which one concept it is


def python_files(*roots: str) -> list[Path]:
    return sorted(p for root in roots for p in (REPO / root).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_cycles() -> list[list[str]]:
    import grimp

    graph = grimp.build_graph("agent_core", exclude_type_checking_imports=True, cache_dir=None)
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
    return strongly_connected(edges)


def strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; groups of two or more modules (or one importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in edges.get(node, ()):
                        groups.append(sorted(group))
    return groups


def sql_outside_storage() -> list[str]:
    found = []
    for path in python_files("agent_core"):
        if path.is_relative_to(REPO / "agent_core" / "storage"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                names = {a.name for a in node.names}
                if mod.startswith("sqlalchemy") and not names <= {"Connection", "Engine"}:
                    found.append(f"{module_name(path)}: from {mod} import {sorted(names)}")
                if mod == "agent_core.storage.schema" or (
                    mod == "agent_core.storage" and "schema" in names
                ):
                    found.append(f"{module_name(path)}: the schema")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("sqlalchemy") or alias.name.endswith(".schema"):
                        found.append(f"{module_name(path)}: import {alias.name}")
    return found


_ALIAS = re.compile(r"^(?:type\s+)?([A-Z]\w*)(?:\s*:\s*TypeAlias)?\s*=\s*(.+)$")


def any_annotations() -> dict[str, int]:
    """Per file: `Any` names outside import lines, plus each use of a type alias spelled with
    Any, in the module that defines it and in those that import it from there."""
    files = python_files("agent_core", "desktop")
    aliases: dict[str, set[str]] = {}  # module -> its aliases spelled with Any
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = _ALIAS.match(line)
            if match and re.search(r"\bAny\b", match.group(2)):
                aliases.setdefault(module_name(path), set()).add(match.group(1))
    counts: dict[str, int] = {}
    for path in files:
        tree = ast.parse(path.read_bytes())
        import_lines: set[int] = set()
        visible = set(aliases.get(module_name(path), set()))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                import_lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            if isinstance(node, ast.ImportFrom) and node.module in aliases:
                visible |= {a.asname or a.name for a in node.names} & aliases[node.module]
        n = 0
        with path.open("rb") as stream:
            for token in tokenize.tokenize(stream.readline):
                if token.type != tokenize.NAME or token.start[0] in import_lines:
                    continue
                if token.string == "Any":
                    n += 1
                elif token.string in visible:
                    match = _ALIAS.match(token.line.strip())
                    if not (match and match.group(1) == token.string):  # not its definition
                        n += 1
        if n:
            counts[str(path.relative_to(REPO))] = n
    return counts


def big_modules() -> dict[str, int]:
    sizes = {}
    for path in python_files("agent_core", "desktop"):
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_LINES and WHOLE not in (ast.get_docstring(ast.parse(text)) or ""):
            sizes[str(path.relative_to(REPO))] = lines
    return sizes


def fixed_waits() -> dict[str, int]:
    counts = {}
    for path in python_files("tests"):
        text = path.read_text(encoding="utf-8")
        n = text.count("time.sleep(") + text.count("qtbot.wait(")
        if n:
            counts[str(path.relative_to(REPO))] = n
    return counts


def layer_coverage() -> dict[str, list[str]]:
    units = sorted(
        p.stem if p.is_file() else p.name
        for p in (REPO / "agent_core").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__")
        or (p.is_dir() and (p / "__init__.py").exists())
    )
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    named: set[str] = set()
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] != "layers":
            continue
        containers = contract.get("containers", [])
        for layer in contract["layers"]:
            for part in re.split(r"[|:]", layer):
                name = part.strip().strip("()")
                for container in containers or [""]:
                    full = f"{container}.{name}" if container else name
                    if full.startswith("agent_core."):
                        named.add(full.split(".")[1])
    return {"units": units, "unnamed": [u for u in units if u not in named]}


def mypy_strict_errors() -> int:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "agent_core"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    return sum(1 for line in result.stdout.splitlines() if ": error:" in line)


def figures(with_mypy: bool) -> dict[str, object]:
    any_counts = any_annotations()
    waits = fixed_waits()
    layers = layer_coverage()
    out: dict[str, object] = {
        "cycles": import_cycles(),
        "sql_outside_storage": sql_outside_storage(),
        "any_total": sum(any_counts.values()),
        "any_by_file": dict(sorted(any_counts.items(), key=lambda kv: -kv[1])),
        "big_modules": big_modules(),
        "fixed_waits_total": sum(waits.values()),
        "fixed_waits": waits,
        "layer_units": len(layers["units"]),
        "layer_units_unnamed": layers["unnamed"],
    }
    if with_mypy:
        out["mypy_strict_errors"] = mypy_strict_errors()
    return out


if __name__ == "__main__":
    print(json.dumps(figures("--mypy" in sys.argv), indent=2))
