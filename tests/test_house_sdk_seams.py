"""The Agents SDK and the openai client are used through their public seams (issue 40, item 3).

BriefDesk once overrode the SDK-private `_fetch_response` of two SDK models and swapped the
private `_source` of the SDK's stream: any release could move them, so the SDK was pinned below
the next one. Now the SDK's own models are made by its public `OpenAIProvider` and called through
the `Model` interface; bodies are bounded and answers checked in the `http_client` handed to the
openai client (agent_core/models/bounded_http.py, streams.py). An upgrade of the SDK should
change no file of ours, and this check keeps it so, reading every module of ours (agent_core,
desktop, tests, benchmarks) from its syntax tree. A private name is one that begins with `_`
and is not a dunder. Offenders:

- an import of a private module or name of `agents` or `openai` (`from agents.x._y import z`,
  `from openai import _z`);
- a private attribute reached from a name bound to them (`agents._config`, `Model._x`);
- `super()._x` in a class with an SDK base;
- `getattr`/`setattr`/`hasattr`/`delattr` of a private name in a module that imports them
  (how the `_source` of a stream was swapped);
- a method of a class with an SDK base that overrides a private method of that base (read from
  the base itself: our own helpers, such as `OpenAICompatModel._streamed`, are not overrides).

Each rule is proven on planted violations first (one of them is the spelling the models used
before), so a checker that sees nothing fails too.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from tests.support.code_scan import Offence, modules

REPO = Path(__file__).resolve().parents[1]
OURS = ("agent_core", "desktop", "tests", "benchmarks")
SDK_ROOTS = ("agents", "openai")
REFLECTION = ("getattr", "setattr", "hasattr", "delattr")
IMPORTS_SDK = re.compile(r"^\s*(from|import)\s+(agents|openai)\b", re.MULTILINE)
"""Only a module that imports the SDK can reach into it: the others are not parsed."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_sdk(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in SDK_ROOTS


def _sdk_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> what it is bound to in the SDK (`agents.models.interface.Model`)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_sdk(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_sdk(node.module):
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _dotted(node: ast.expr) -> list[str] | None:
    """`a.b.c` as ["a", "b", "c"]; None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def _resolve(qualified: str) -> object | None:
    """The SDK object `qualified` names (`agents.models.interface.Model`), or None."""
    parts = qualified.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name, None)
        return found
    return None


def _import_offences(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Import):
        return [
            f"imports the private {a.name}"
            for a in node.names
            if _is_sdk(a.name) and any(_private(p) for p in a.name.split("."))
        ]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and _is_sdk(node.module):
        assert node.module is not None
        if any(_private(p) for p in node.module.split(".")):
            return [f"imports from the private {node.module}"]
        return [
            f"imports the private {node.module}.{a.name}" for a in node.names if _private(a.name)
        ]
    return []


def _class_offences(node: ast.ClassDef, sdk: dict[str, str]) -> list[tuple[int, str]]:
    bases: list[type] = []
    for base in node.bases:
        parts = _dotted(base)
        if parts is not None and parts[0] in sdk:
            found = _resolve(".".join([sdk[parts[0]], *parts[1:]]))
            if isinstance(found, type):
                bases.append(found)
    if not bases:
        return []
    found: list[tuple[int, str]] = []
    for item in node.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _private(item.name):
            continue
        owners = [k for b in bases for k in b.__mro__ if k is not object and item.name in vars(k)]
        if owners:
            owner = f"{owners[0].__module__}.{owners[0].__qualname__}"
            found.append((item.lineno, f"{node.name} overrides the private {owner}.{item.name}"))
    for inner in ast.walk(node):
        if (
            isinstance(inner, ast.Attribute)
            and _private(inner.attr)
            and isinstance(inner.value, ast.Call)
            and isinstance(inner.value.func, ast.Name)
            and inner.value.func.id == "super"
        ):
            found.append((inner.lineno, f"{node.name} calls the private super().{inner.attr}"))
    return found


def offences_in(root: Path) -> list[Offence]:
    """Every place in our modules under `root` that reaches a private name of the SDK."""
    found: list[Offence] = []
    for where, path in modules(root, *OURS):
        source = path.read_text(encoding="utf-8")
        if not IMPORTS_SDK.search(source):
            continue
        tree = ast.parse(source)
        sdk = _sdk_names(tree)
        if not sdk:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found += [Offence(where, node.lineno, w) for w in _import_offences(node)]
            elif isinstance(node, ast.ClassDef):
                found += [Offence(where, n, w) for n, w in _class_offences(node, sdk)]
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                parts = _dotted(node)
                if parts is not None and parts[0] in sdk:
                    found.append(Offence(where, node.lineno, f"reaches {'.'.join(parts)}"))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in REFLECTION
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and _private(node.args[1].value)
            ):
                name = node.args[1].value
                found.append(Offence(where, node.lineno, f"{node.func.id}(..., {name!r})"))
    return found


def test_no_module_of_ours_reaches_a_private_name_of_the_sdk() -> None:
    assert [str(o) for o in offences_in(REPO)] == []


def test_the_models_are_made_by_the_sdks_public_provider() -> None:
    """The seam the check relies on: the SDK's models come from `OpenAIProvider.get_model`."""
    source = (REPO / "agent_core/models/openai_compat.py").read_text(encoding="utf-8")
    assert "OpenAIProvider(" in source and ".get_model(" in source


_HEADER = (
    "from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel\n"
    "from agents.models.interface import Model\n"
)
PLANTED = {
    "the old override of _fetch_response": (
        "class Checked(OpenAIChatCompletionsModel):\n"
        "    async def _fetch_response(self, *args, **kwargs):\n"
        "        return await super()._fetch_response(*args, **kwargs)\n",
        2,  # the override, and the call of the private super method
    ),
    "the old swap of a stream's _source": (
        "def accept(stream):\n    setattr(stream, '_source', None)\n",
        1,
    ),
    "a private module": ("from openai._base_client import AsyncAPIClient\n", 1),
    "a private name": ("from agents.run import _ServerConversationTracker\n", 1),
    "a private attribute of an SDK name": (
        "import agents as sdk\nsdk._debug = True\n",
        1,
    ),
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_the_checker_sees_a_planted_violation(tmp_path: Path, kind: str) -> None:
    module = tmp_path / "agent_core" / "models" / "planted.py"
    module.parent.mkdir(parents=True)
    helpers = (  # our own private helpers on a subclass of the SDK's Model are no offence
        "class Ours(Model):\n    def _streamed(self):\n        return self._inner\n\n"
    )
    module.write_text(_HEADER + helpers, encoding="utf-8")
    assert offences_in(tmp_path) == []
    code, count = PLANTED[kind]
    module.write_text(_HEADER + helpers + code, encoding="utf-8")
    offences = offences_in(tmp_path)
    assert len(offences) == count and all(o.path.endswith("planted.py") for o in offences), offences
