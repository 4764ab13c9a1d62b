"""Keep only the shared libraries that something in the bundle loads (used by briefdesk.spec).

PyInstaller collects every library that any collected binary links to, so a Qt plugin left out
of the bundle still leaves its libraries behind (the GTK platform theme alone brings GTK, ATK,
Cairo and Pango). After the spec drops the plugins it does not want, `prune` keeps the roots
(Python extension modules, the Qt plugins still there, libpython) and exactly the libraries
they need, directly or through each other, as `ldd` resolves them; every other library, and
every symlink to one, goes. (Nothing in BriefDesk loads a bundled library by name through
ctypes; watchdog's inotify and the keyring reach only the system's libc and D-Bus socket.)
Build time only.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import PurePosixPath

Entry = tuple[str, str, str]  # (destination in the bundle, source path, PyInstaller typecode)

_SONAME_LINE = re.compile(r"^\s*(\S+\.so[^\s]*)\s*(?:=>|\()")


def is_library(dest: str) -> bool:
    """A shared library that only matters if something needs it (not a module, not a plugin)."""
    path = PurePosixPath(dest)
    if "/plugins/" in f"/{dest}" or path.name.startswith("libpython"):
        return False
    if ".cpython-" in path.name or (".abi3." in path.name and not path.name.startswith("lib")):
        return False
    if path.parent.name == "lib-dynload":
        return False
    return path.name.startswith("lib") and ".so" in path.name


def needed_names(binary: str) -> set[str]:
    """Every library `binary` needs, directly or not, by file name (from `ldd`)."""
    result = subprocess.run(["ldd", binary], capture_output=True, text=True, check=False)
    names = set()
    for line in result.stdout.splitlines():
        found = _SONAME_LINE.match(line)
        if found:
            names.add(PurePosixPath(found.group(1)).name)
    return names


def prune(
    binaries: Sequence[Entry], datas: Sequence[Entry]
) -> tuple[list[Entry], list[Entry], list[str]]:
    """(binaries, datas, dropped destinations): unneeded libraries and symlinks to them gone."""
    entries = [e for e in binaries if e[2] != "SYMLINK"]
    roots = [e for e in entries if not is_library(e[0])]
    libraries = {PurePosixPath(e[0]).name: e for e in entries if is_library(e[0])}
    wanted: set[str] = set()
    for root in roots:
        wanted |= needed_names(root[1])
    # A library needed only by another library: ldd's answer for the roots is already
    # transitive, but a library resolved from the system may differ from the bundled one.
    pending = [name for name in wanted if name in libraries]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for dep in needed_names(libraries[name][1]):
            wanted.add(dep)
            if dep in libraries and dep not in seen:
                pending.append(dep)
    dropped = sorted(e[0] for name, e in libraries.items() if name not in wanted)
    gone = set(dropped)
    gone_names = {PurePosixPath(d).name for d in gone}

    def keep(entry: Entry) -> bool:
        if entry[0] in gone:
            return False
        if entry[2] == "SYMLINK":  # (link, target relative to the link's folder, "SYMLINK")
            return PurePosixPath(entry[1]).name not in gone_names
        return True

    return [e for e in binaries if keep(e)], [e for e in datas if keep(e)], dropped
