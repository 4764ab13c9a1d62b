"""Run an MCP server under bubblewrap: what it may see, write and reach (contract: "MCP servers
in a sandbox").

`sandbox_argv` wraps the launcher's command line in `bwrap`: new user, IPC, PID, network, UTS
and cgroup namespaces (the network shared only for a server added with `--network`), every
capability dropped (as root, bwrap keeps them otherwise, and a server could then unmount the
tmpfs that hides the home), the whole tree read-only, then hidden:

- the person's home, BriefDesk's home wherever it lies, the host's temporary folders (`/tmp`,
  `/var/tmp`, `/dev/shm`) and `/run` (the session bus at `/run/user/UID/bus`, the system bus
  in `/run/dbus`, other daemons' sockets): each an empty tmpfs. A read-only bind does not
  stop `connect()` on a unix socket, so the folder of the socket named in
  `DBUS_SESSION_BUS_ADDRESS`, wherever it lies, is covered too;
- a fresh `/proc` (its own PID namespace: none of BriefDesk's processes, so no
  `/proc/PID/environ`) and a minimal `/dev`.

Then given back: the server's installation read-only (`installation`), its granted folders
read-write (servers.granted_folders), and `/tmp` as its own private, writable temp folder.
bwrap is BriefDesk's direct child; the launcher runs inside, so the server and whatever it
starts live in the PID namespace, and all of it is killed when the server (PID namespace init's
only child) exits, when bwrap is signalled, or when BriefDesk dies (`--die-with-parent`).
Environment values reach the server by inheritance, never on a command line.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.storage.tables.mcp_servers import McpServerRow
from agent_core.tools.mcp.servers import granted_folders

SANDBOX_TMP = "/tmp"
"""The server's own temporary folder inside the sandbox (a private tmpfs): its TMPDIR."""
HOST_TEMP = ("/tmp", "/var/tmp", "/dev/shm")
RUN_DIR = "/run"
_PROBE_TIMEOUT_S = 10.0
_SHEBANG_MAX = 256


def sandbox_unavailable(server: str, why: str) -> BriefDeskError:
    return BriefDeskError(
        ErrorCode.SANDBOX_UNAVAILABLE,
        f"The MCP server {server!r} cannot run in a sandbox: {why}. Install bubblewrap "
        "(Debian: apt-get install bubblewrap) and allow unprivileged user namespaces, or add "
        "the server again with --no-sandbox to run it unconfined.",
        server=server,
    )


def require_bwrap(server: str) -> str:
    """The bwrap program, checked once per process to make a namespace here; otherwise
    `sandbox_unavailable` saying why."""
    if not sys.platform.startswith("linux"):
        raise sandbox_unavailable(server, "bubblewrap runs only on Linux")
    found = shutil.which("bwrap")
    if found is None:
        raise sandbox_unavailable(server, "bwrap (bubblewrap) is not on PATH")
    why = _probe(found)
    if why:
        raise sandbox_unavailable(server, f"bwrap cannot make a sandbox here ({why})")
    return found


@functools.cache
def _probe(bwrap: str) -> str:
    """'' when bwrap makes the namespaces a server gets; else what it said (cached: a
    machine's user namespaces do not come and go while BriefDesk runs)."""
    try:
        done = subprocess.run(
            [bwrap, "--unshare-all", "--cap-drop", "ALL", "--ro-bind", "/", "/", "true"],
            capture_output=True,
            text=True,
            timeout=_PROBE_TIMEOUT_S,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return type(exc).__name__
    if done.returncode == 0:
        return ""
    said = " ".join(done.stderr.split())[:200]
    return said or f"exit status {done.returncode}"


def person_homes(env: Mapping[str, str]) -> list[Path]:
    """The person's home as BriefDesk's environment names it and as the system does."""
    homes: list[Path] = []
    for candidate in (os.environ.get("HOME", ""), env.get("HOME", ""), _passwd_home()):
        if candidate and Path(candidate).is_absolute():
            home = Path(os.path.realpath(candidate))
            if home != Path("/") and home.is_dir() and home not in homes:
                homes.append(home)
    return homes


def _passwd_home() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError):
        return ""


def bus_sockets(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The unix socket paths of `DBUS_SESSION_BUS_ADDRESS` (every `path=` of every address)."""
    address = (os.environ if environ is None else environ).get("DBUS_SESSION_BUS_ADDRESS", "")
    paths = re.findall(r"(?:^|[:,;])path=([^,;]+)", address)
    return [Path(_unescape(p)) for p in paths if p.startswith("/")]


def _unescape(value: str) -> str:
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), value)


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def installation(
    files: Iterable[str | Path], search_path: str
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """What must be readable for these programs to run, and the symlinks met on the way to
    them ((link, its target): recreated where they lie in a hidden folder). Readable: each
    file (symlinks followed), the interpreter its `#!` line names (`/usr/bin/env X` looked up
    on `search_path`), and the package each belongs to: the virtual environment holding a
    `pyvenv.cfg` (pipx and uv tools are such venvs) with the Python it was made from, the
    outermost `node_modules` tree (for npx, its `~/.npm/_npx/HASH` folder), the prefix of a
    Python or node binary."""
    todo = [Path(os.path.abspath(f)) for f in files]
    seen: set[Path] = set()
    found: list[Path] = []
    links: list[tuple[Path, str]] = []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        chain = _symlinks(path)
        links += [link for link in chain if link not in links]
        real = Path(os.path.realpath(path))
        if not real.exists():
            continue
        if real not in found:
            found.append(real)
        if real.is_file():
            todo.extend(_interpreter(real, search_path))
        for place in [path, *(link for link, _ in chain), real]:
            for package, more in _packages(place):
                if package not in found:
                    found.append(package)
                todo.extend(more)
    return found, links


def _symlinks(path: Path) -> list[tuple[Path, str]]:
    """Every symlink resolving `path` walks through, as (where it lies, what it says)."""
    links: list[tuple[Path, str]] = []
    current = Path("/")
    parts = list(path.parts[1:])
    while parts and len(links) < 40:  # a loop is the kernel's ELOOP, not ours to chase
        part = parts.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            current = current.parent
            continue
        candidate = current / part
        if not candidate.is_symlink():
            current = candidate
            continue
        target = os.readlink(candidate)
        links.append((candidate, target))
        if os.path.isabs(target):
            current, parts = Path("/"), [*Path(target).parts[1:], *parts]
        else:
            parts = [*Path(target).parts, *parts]
    return links


def _interpreter(script: Path, search_path: str) -> list[Path]:
    try:
        with script.open("rb") as handle:
            head = handle.read(_SHEBANG_MAX)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if not words:
        return []
    if Path(words[0]).name == "env":
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        named = shutil.which(names[0], path=search_path) if names else None
        return [Path(words[0])] + ([Path(named)] if named else [])
    return [Path(words[0])]


def _packages(real: Path) -> list[tuple[Path, list[Path]]]:
    """(package folder, further files to follow) for each package `real` belongs to."""
    out: list[tuple[Path, list[Path]]] = []
    ancestors = [real, *real.parents] if real.is_dir() else list(real.parents)
    venv = next((a for a in ancestors if (a / "pyvenv.cfg").is_file()), None)
    if venv is not None:
        out.append((venv, _venv_base(venv)))
    modules = [a for a in ancestors if a.name == "node_modules"]
    if modules:
        top = modules[-1]
        out.append((top.parent if top.parent.parent.name == "_npx" else top, []))
    if real.parent.name == "bin" and re.fullmatch(r"python[0-9.]*|node", real.name):
        prefix = real.parent.parent
        if (prefix / "lib").is_dir():
            out.append((prefix, []))
    return out


def _venv_base(venv: Path) -> list[Path]:
    """The Python a venv was made from (`home = .../bin` in its pyvenv.cfg)."""
    try:
        lines = (venv / "pyvenv.cfg").read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    for line in lines:
        key, eq, value = line.partition("=")
        if eq and key.strip() == "home" and value.strip():
            home = Path(value.strip())
            return [home / name for name in ("python3", "python") if (home / name).exists()][:1]
    return []


def _npx_packages(row: McpServerRow, homes: Sequence[Path]) -> list[Path]:
    """`npx [-y] PKG ...`: the `~/.npm/_npx/HASH` folders that hold PKG (npx runs it from
    there; the sandbox cannot fetch it)."""
    if Path(row.command).name not in ("npx", "npx-cli.js"):
        return []
    names = [a for a in row.args if not a.startswith("-")][:1]
    if not names:
        return []
    spec = names[0]
    package = spec if spec.startswith("@") and spec.count("@") == 1 else spec.rsplit("@", 1)[0]
    package = package or spec
    found: list[Path] = []
    for home in homes:
        npx = home / ".npm" / "_npx"
        if npx.is_dir():
            found.extend(d for d in npx.iterdir() if (d / "node_modules" / package).is_dir())
    return found


def sandbox_argv(
    bwrap: str,
    row: McpServerRow,
    inner: Sequence[str],
    env: Mapping[str, str],
    *,
    program_files: Sequence[str | Path],
    private: Sequence[Path] = (),
) -> list[str]:
    """`bwrap OPTIONS -- INNER...` for `row`. `program_files` are the launcher, its Python
    and the server's command as found on PATH; absolute file arguments of the server are
    added. `private`: folders hidden wherever they lie (BriefDesk's home: its `state.db`
    holds every run, and may lie outside the person's home)."""
    homes = person_homes(env)
    private_dirs = [Path(os.path.realpath(p)) for p in private]
    hidden = [*homes, *(Path(t) for t in HOST_TEMP), Path(RUN_DIR), *private_dirs]
    hidden = [h for h in hidden if h.is_dir()]
    granted = list(granted_folders(row))
    search_path = env.get("PATH", os.defpath)
    named = [a for a in row.args if Path(a).is_absolute() and Path(a).is_file()]
    installed, links = installation([*program_files, *named], search_path)
    installed += [p for p in _npx_packages(row, homes) if p not in installed]
    if row.network:
        installed += [p for p in _resolver_files() if p not in installed]

    argv = [bwrap, "--unshare-all", "--die-with-parent", "--cap-drop", "ALL"]
    if row.network:
        argv.append("--share-net")
    argv += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for folder in _outermost(hidden):
        argv += ["--tmpfs", str(folder)]
    for path in _outermost(p for p in installed if _hidden(p, hidden)):
        if not any(_under(h, path) for h in hidden):  # never a whole home given back
            argv += ["--ro-bind", str(path), str(path)]
    shown = _outermost([*(p for p in installed if p.is_dir()), *granted])
    for link, target in links:
        if _hidden(link, hidden) and not any(_under(link, d) for d in shown):
            argv += ["--symlink", target, str(link)]
    for folder in granted:
        argv += ["--bind", str(folder), str(folder)]
    argv += _hide_bus(hidden, granted, installed)
    argv += ["--chdir", _working_dir(hidden, granted, installed)]
    return [*argv, "--", *inner]


def _hidden(path: Path, hidden: Sequence[Path]) -> bool:
    return any(_under(path, h) for h in hidden)


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """Each path once, parents before (and instead of) what they hold."""
    kept: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(_under(path, k) for k in kept):
            kept.append(path)
    return kept


def _hide_bus(hidden: Sequence[Path], granted: Sequence[Path], shown: Sequence[Path]) -> list[str]:
    """Cover the session bus socket wherever it lies: a tmpfs over its folder, or, when that
    folder holds something the server is given, the socket itself replaced by /dev/null
    (connect() on it is refused)."""
    argv: list[str] = []
    for socket in bus_sockets():
        folder = Path(os.path.realpath(socket.parent))
        if not folder.is_dir() or folder == Path("/"):
            continue
        visible = [*granted, *shown]
        if _hidden(folder, hidden) and not any(_under(folder, v) for v in visible):
            continue  # already out of sight
        if any(_under(v, folder) or _under(folder, v) for v in visible):
            if socket.exists():
                argv += ["--ro-bind", "/dev/null", str(folder / socket.name)]
        else:
            argv += ["--tmpfs", str(folder)]
    return argv


def _resolver_files() -> list[Path]:
    """What name resolution reads when /etc/resolv.conf points into the hidden /run."""
    target = Path(os.path.realpath("/etc/resolv.conf"))
    return [target] if target.is_file() and _under(target, Path(RUN_DIR)) else []


def _working_dir(hidden: Sequence[Path], granted: Sequence[Path], shown: Sequence[Path]) -> str:
    """BriefDesk's own working folder when the server can see it, else its first granted
    folder, else its temp folder."""
    try:
        cwd = Path(os.getcwd())
    except OSError:
        cwd = Path(SANDBOX_TMP)
    if not _hidden(cwd, hidden) or any(_under(cwd, v) for v in [*granted, *shown]):
        return str(cwd)
    return str(granted[0]) if granted else SANDBOX_TMP
