"""The servers a desk registers: their names, their `--env` values and their environment.

A server name is what the model sees between `mcp__` and the next `__`, so it is kept
unambiguous: lower-case letters, digits, `-` and `_`, starting and ending with a letter or
digit and never holding `__` (the split at the first `__` after `mcp__` is then the only one).

A server starts with `PATH`, `HOME`, `LANG`, `LC_*` and `TMPDIR` of BriefDesk's environment
(in a sandbox, TMPDIR is its own temp folder) and its own `--env` values, nothing else: no
provider key or other secret of the parent can reach it. A `keyring:SECRET_NAME` value is
read from the OS keyring when the server starts (never stored, never printed) and registered
with the redactor, so anything that echoes it is masked.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home import secrets
from agent_core.home.clock import now_iso
from agent_core.storage.tables.mcp_servers import EnvEntry, McpServerRow

MODEL_PREFIX = "mcp__"
MAX_SERVER_NAME = 32
MAX_MODEL_NAME = 64  # the OpenAI function-name limit
KEYRING_PREFIX = "keyring:"
INHERITED = ("PATH", "HOME", "LANG", "TMPDIR")
"""Taken from BriefDesk's own environment (with every `LC_*`); nothing else is."""

_SERVER_RE = re.compile(r"[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?")
_TOOL_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ENV_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
MAX_ENV_VALUE = 32_768


def _invalid(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, message)


def check_server_name(name: str) -> str:
    if len(name) > MAX_SERVER_NAME or not _SERVER_RE.fullmatch(name) or "__" in name:
        raise _invalid(
            f"An MCP server name is 1-{MAX_SERVER_NAME} characters of a-z, 0-9, '-' and '_', "
            "starting and ending with a letter or digit, without '__' (for example 'git')."
        )
    return name


def check_tool_name(tool: str) -> str:
    if not _TOOL_RE.fullmatch(tool):
        raise _invalid("An MCP tool name is 1-64 characters of A-Z, a-z, 0-9, '-' and '_'.")
    return tool


def model_name(server: str, tool: str) -> str | None:
    """`mcp__SERVER__TOOL`, or None when the tool's name cannot be shown to a model as it is
    (a tool is never renamed: it is left out instead)."""
    name = f"{MODEL_PREFIX}{server}__{tool}"
    if not _TOOL_RE.fullmatch(tool) or len(name) > MAX_MODEL_NAME:
        return None
    return name


def split_model_name(name: str) -> tuple[str, str] | None:
    """(server, tool) of `mcp__SERVER__TOOL`; None for any other name."""
    if not name.startswith(MODEL_PREFIX):
        return None
    server, sep, tool = name[len(MODEL_PREFIX) :].partition("__")
    if not sep or not tool or not _SERVER_RE.fullmatch(server):
        return None
    return server, tool


def parse_env(items: Iterable[str]) -> dict[str, EnvEntry]:
    """`KEY=VALUE` and `KEY=keyring:SECRET_NAME` as given to `mcp add --env`."""
    env: dict[str, EnvEntry] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not _ENV_KEY_RE.fullmatch(key):
            raise _invalid(
                "--env takes KEY=VALUE or KEY=keyring:SECRET_NAME, KEY made of letters, digits "
                f"and '_' (not starting with a digit); got {key[:40]!r}."
            )
        if key in env:
            raise _invalid(f"--env {key} is given twice.")
        if "\0" in value or len(value) > MAX_ENV_VALUE:
            raise _invalid(f"--env {key}: the value holds a NUL or is too long.")
        if value.startswith(KEYRING_PREFIX):
            env[key] = EnvEntry("keyring", secrets.validate_name(value[len(KEYRING_PREFIX) :]))
        else:
            env[key] = EnvEntry("value", value)
    return env


def new_server(
    name: str,
    command: str,
    args: Iterable[str],
    env: Iterable[str],
    *,
    trust_hints: bool,
    roots: Iterable[str] = (),
    network: bool = False,
    sandbox: bool = True,
) -> McpServerRow:
    """A server row as `mcp add` would store it, every part checked (`invalid_arguments`):
    each `--root` made absolute and required to be an existing folder."""
    if not command.strip() or "\0" in command:
        raise _invalid("mcp add needs the server's command after '--' (for example -- uvx X).")
    arguments = tuple(args)
    if any("\0" in a for a in arguments):
        raise _invalid("An argument of the server's command holds a NUL character.")
    return McpServerRow(
        name=check_server_name(name),
        command=command,
        args=arguments,
        env=parse_env(env),
        trust_hints=trust_hints,
        created_at=now_iso(),
        roots=_roots(roots),
        network=network,
        sandbox=sandbox,
    )


def _roots(roots: Iterable[str]) -> tuple[str, ...]:
    found: list[str] = []
    for root in roots:
        if not root.strip() or "\0" in root:
            raise _invalid("--root needs a folder.")
        try:
            folder: Path | None = Path(root).expanduser().resolve()
            exists = folder is not None and folder.is_dir()
        except (OSError, RuntimeError, ValueError):  # a name too long, a symlink loop
            folder, exists = None, False
        if folder is None or not exists:
            raise _invalid(f"--root {root[:200]!r} is not an existing folder.")
        if str(folder) not in found:
            found.append(str(folder))
    return tuple(found)


def granted_folders(row: McpServerRow) -> tuple[Path, ...]:
    """The folders a server may write in, in order: each argument after `--` that names an
    existing folder by an absolute path, then each `--root`. The first one is where a
    relative `path` of a whole-file write lands (the contract's "first granted folder")."""
    found: list[Path] = []
    for candidate in (*row.args, *row.roots):
        path = Path(candidate)
        if path.is_absolute() and path.is_dir():
            resolved = path.resolve()
            if resolved not in found:
                found.append(resolved)
    return tuple(found)


def inherited_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """What a server takes from BriefDesk's environment: PATH, HOME, LANG, LC_*, TMPDIR."""
    source = os.environ if environ is None else environ
    return {
        k: v
        for k, v in source.items()
        if (k in INHERITED or k.startswith("LC_")) and not v.startswith("()")
    }


def server_env(row: McpServerRow, *, keyring_timeout: float = 5.0) -> dict[str, str]:
    """The whole environment of a server about to start; keyring values read now.

    A secret that is missing or a keyring that cannot answer is `mcp_server_unavailable`
    naming the secret, never its value.
    """
    env = inherited_env()
    for key, entry in row.env.items():
        if entry.kind == "value":
            env[key] = entry.text
            continue
        try:
            env[key] = secrets.get_key(entry.text, timeout=keyring_timeout)
        except BriefDeskError as exc:
            raise BriefDeskError(
                ErrorCode.MCP_SERVER_UNAVAILABLE,
                f"The MCP server {row.name!r} needs the keyring secret {entry.text!r} for "
                f"{key}: {exc.message}",
                server=row.name,
            ) from None
    return env


def resolve_command(row: McpServerRow, env: Mapping[str, str]) -> str:
    """The command's path on the server's own PATH; `mcp_server_unavailable` when none."""
    found = shutil.which(row.command, path=env.get("PATH", os.defpath))
    if found is None:
        raise BriefDeskError(
            ErrorCode.MCP_SERVER_UNAVAILABLE,
            f"The MCP server {row.name!r} cannot start: its command {row.command!r} was not "
            "found on PATH (or is not executable).",
            server=row.name,
        )
    return found
