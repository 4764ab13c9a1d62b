"""Which folders are system file systems (/proc, /sys, device nodes) and no place for artifacts.

The artifacts watcher hashes every regular file under its folder and asks inotify to watch every
sub-folder. On a pseudo file system that never ends: `/proc/self` holds the whole process table
through `task/` and files whose reads never finish, so `run --artifacts /proc/self` spun at 100 %
CPU before the run started. Such a folder is refused up front (`invalid_arguments`) rather than
skipped at watch time: nothing can be saved there anyway (`save_brief` could never write its
brief), so a run created on it could only fail later, and a clear refusal at `run` costs the
person nothing. A pseudo file system mounted *below* a folder is refused the same way (`/` holds
`/proc`); one mounted there later is pruned from the watcher's scan.

The kind of file system is read from /proc/self/mountinfo (`os.statvfs` does not name it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode

MOUNTINFO = Path("/proc/self/mountinfo")
# The folders where Linux mounts them, whatever a container put there (in Docker /dev is tmpfs).
SYSTEM_FOLDERS = (Path("/proc"), Path("/sys"), Path("/dev"))
PSEUDO_FS_TYPES = frozenset(
    {
        "proc",
        "sysfs",
        "devtmpfs",
        "devpts",
        "cgroup",
        "cgroup2",
        "debugfs",
        "tracefs",
        "securityfs",
        "pstore",
        "bpf",
        "configfs",
        "fusectl",
        "mqueue",
        "hugetlbfs",
        "binfmt_misc",
        "efivarfs",
        "selinuxfs",
        "rpc_pipefs",
        "nsfs",
        "autofs",
    }
)


@dataclass(frozen=True)
class Mount:
    point: Path
    fstype: str


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash in a path as octal escapes (\\040)."""
    for code in ("040", "011", "012", "134"):
        field = field.replace("\\" + code, chr(int(code, 8)))
    return field


def mounts() -> list[Mount]:
    """This process's mounts; [] where /proc is not readable (then the folder names decide)."""
    try:
        lines = MOUNTINFO.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        # "36 35 98:0 /root /mount/point opts [optional...] - fstype source superopts"
        before, sep, after = line.partition(" - ")
        fields = before.split()
        if sep and len(fields) >= 5 and after.split():
            found.append(Mount(Path(_unescape(fields[4])), after.split()[0]))
    return found


def pseudo_mount_points() -> frozenset[Path]:
    """Mount points of pseudo file systems: a folder walk never enters them."""
    return frozenset(m.point for m in mounts() if m.fstype in PSEUDO_FS_TYPES)


def system_folder_reason(folder: Path) -> str | None:
    """Why `folder` cannot be an artifacts folder (a sentence), or None when it can."""
    path = Path(folder).expanduser().resolve()
    for system in SYSTEM_FOLDERS:
        if path.is_relative_to(system):
            return f"{path} is inside {system}, a system folder."
    table = mounts()
    holders = [m for m in table if path.is_relative_to(m.point)]
    if holders:
        # The innermost mount wins; of mounts stacked on one point, the last listed (on top).
        holder = max(reversed(holders), key=lambda m: len(m.point.parts))
        if holder.fstype in PSEUDO_FS_TYPES:
            return f"{path} is on a {holder.fstype} file system, not a folder for files."
    for m in table:
        if m.fstype in PSEUDO_FS_TYPES and m.point != path and m.point.is_relative_to(path):
            return f"{path} contains {m.point}, a {m.fstype} file system."
    return None


def refuse_system_folder(folder: Path, what: str = "artifacts folder") -> None:
    """`invalid_arguments` for a folder on (or above) a pseudo file system."""
    reason = system_folder_reason(folder)
    if reason is not None:
        raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"This cannot be the {what}: {reason}")
