"""Path sandbox for the agent's file tools: every path the model supplies is hostile.

Validation happens twice: `resolve_inside` refuses lexical tricks and checks the fully
resolved real path against the root; reads and writes then walk from the root one
component at a time with O_NOFOLLOW (fd-relative), so a symlink swapped in after
validation is refused instead of followed. That needs O_NOFOLLOW, O_DIRECTORY and dir_fd
(Linux, macOS, BSD); where they are missing (Windows) the module still imports, but every
file operation refuses with `sandbox_unsupported` rather than run without its guarantees.

Symlinks inside the root are followed for reads and as parent folders for writes when
their resolved target stays inside the root; a write never replaces a symlink itself.
Whatever the permission mode, a write never touches a dot-file or dot-folder nor a file named
like a BriefDesk store (`_refuse_protected_write`: the one place of that rule).
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import functools
import hashlib
import os
import re
import secrets
import stat
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode

MAX_PATH_CHARS = 1024
MAX_COMPONENT_BYTES = 255

# What the guarantees rest on. Looked up on first use, never at import, so that agent_core
# imports everywhere (the Windows os module has none of these flags and no dir_fd).
_REQUIRED_FLAGS = ("O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK", "O_CLOEXEC")
_DIR_FD_CALLS = ("open", "mkdir", "stat", "unlink", "rename")  # os.replace shares rename's
# A refused trailing symlink is ELOOP on Linux/macOS, EMLINK on FreeBSD.
_SYMLINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK})
_TEMP_TOKEN_HEX = 16
_TEMP_RE = re.compile(r"\A\..+\.[0-9a-f]{16}\.tmp\Z", re.DOTALL)  # 16 == _TEMP_TOKEN_HEX
_DRIVE_RE = re.compile(r"\A[A-Za-z]:")
# Cc: C0/C1 controls incl. NUL and newlines; Cf: invisible format characters such as bidi
# overrides that make a name read as something else; Cs: lone surrogates (raw bytes).
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})
_CHUNK = 1 << 16
# A BriefDesk store and its journals (case-insensitive: the same file on macOS and Windows).
_STORE_NAME_RE = re.compile(r"\Astate\.db(?:-wal|-shm|-journal)?\Z", re.IGNORECASE)
_SPECIAL = "path is a folder or a special file (FIFO, device, socket), not a regular file"


@dataclass(frozen=True)
class _Flags:
    read: int
    dir: int
    temp: int


@functools.cache  # a refusal raises, and exceptions are not cached: it is asked again
def _flags() -> _Flags:
    missing = [f"os.{name}" for name in _REQUIRED_FLAGS if not hasattr(os, name)]
    missing += [
        f"dir_fd support in os.{name}"
        for name in _DIR_FD_CALLS
        if getattr(os, name) not in os.supports_dir_fd
    ]
    if os.stat not in os.supports_follow_symlinks:
        missing.append("os.stat(follow_symlinks=False)")
    if missing:
        raise BriefDeskError(
            ErrorCode.SANDBOX_UNSUPPORTED,
            f"The file sandbox cannot keep tool paths inside their folders on this system "
            f"({sys.platform}): it lacks {', '.join(missing)}.",
            missing=missing,
        )
    nofollow, cloexec = os.O_NOFOLLOW, os.O_CLOEXEC
    return _Flags(
        read=os.O_RDONLY | nofollow | os.O_NONBLOCK | cloexec,
        dir=os.O_RDONLY | os.O_DIRECTORY | nofollow | cloexec,
        temp=os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow | cloexec,
    )


def require_supported() -> None:
    """Raise sandbox_unsupported unless this OS offers what the sandbox's guarantees need."""
    _flags()


def _outside(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.PATH_OUTSIDE_SCOPE, message)


def _invalid(message: str) -> BriefDeskError:
    return BriefDeskError(ErrorCode.INVALID_ARGUMENTS, message)


def _not_found(message: str = "file not found") -> BriefDeskError:
    return BriefDeskError(ErrorCode.NOT_FOUND, message)


def _resolve_root(root: Path) -> Path:
    try:
        resolved = Path(root).resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise _not_found("the workspace folder does not exist") from exc
    if not resolved.is_dir():
        raise _invalid("the workspace root is not a folder")
    return resolved


def _split_relative(relative: object) -> tuple[str, ...]:
    """Everything that can be refused without touching the disk; returns the components."""
    if not isinstance(relative, str):
        raise _invalid("path must be a string")
    if not relative.strip():
        raise _invalid("path is empty")
    if len(relative) > MAX_PATH_CHARS:
        raise _invalid(f"path is longer than {MAX_PATH_CHARS} characters")
    if any(unicodedata.category(ch) in _FORBIDDEN_CATEGORIES for ch in relative):
        raise _invalid("path contains control or invisible characters")
    # Fullwidth dots/slashes only look harmless; some later layer may normalise them.
    if unicodedata.normalize("NFKC", relative) != relative:
        raise _outside("path changes under Unicode (NFKC) normalisation")
    if relative.startswith("/") or _DRIVE_RE.match(relative):
        raise _outside("absolute paths are not allowed")
    if "\\" in relative:  # Windows separators, UNC and \\?\ prefixes
        raise _outside("backslashes are not allowed in paths")
    if relative.startswith("~"):
        raise _outside("home-directory paths are not allowed")
    parts = tuple(p for p in relative.split("/") if p not in ("", "."))
    if ".." in parts:
        raise _outside("'..' is not allowed in paths")
    if not parts:
        raise _outside("the workspace root itself is not a file")
    if any(len(p.encode("utf-8")) > MAX_COMPONENT_BYTES for p in parts):
        raise _invalid(f"a path component is longer than {MAX_COMPONENT_BYTES} bytes")
    return parts


def _resolve_parts(root_r: Path, parts: tuple[str, ...], *, must_exist: bool) -> Path:
    try:
        # realpath follows every symlink in every component, dangling ones included.
        resolved = root_r.joinpath(*parts).resolve(strict=False)
    except (OSError, RuntimeError) as exc:  # a symlink loop is RuntimeError before 3.13
        raise _outside("path goes through a symlink loop") from exc
    if resolved == root_r or not resolved.is_relative_to(root_r):
        raise _outside("path resolves outside the workspace")
    try:
        st = os.lstat(resolved)  # never open: opening a FIFO blocks, a device has effects
    except (FileNotFoundError, NotADirectoryError):
        if must_exist:
            raise _not_found() from None
        return resolved
    except OSError as exc:
        raise _invalid(f"cannot inspect path: {exc.strerror}") from exc
    if stat.S_ISLNK(st.st_mode):  # resolve() removed every link: this one raced in
        raise _outside("path turned into a symlink while being checked")
    if not stat.S_ISREG(st.st_mode):
        raise _invalid(_SPECIAL)
    return resolved


def _refuse_protected_write(parts: Sequence[str]) -> None:
    """What no write may touch, in any permission mode (a person cannot approve it either):
    dot-files and dot-folders (`.bashrc`, `.git/hooks/...`, `.ssh/...`: configuration that
    runs code) and a file named like a BriefDesk store (`state.db`, its -wal, -shm)."""
    for part in parts:
        if part.startswith("."):
            raise BriefDeskError(
                ErrorCode.WRITE_FORBIDDEN,
                f"writes never touch dot-files or dot-folders ({part!r}); name a visible file",
            )
    if parts and _STORE_NAME_RE.match(parts[-1]):
        raise BriefDeskError(
            ErrorCode.WRITE_FORBIDDEN, "writes never touch a file named like a BriefDesk store"
        )


def resolve_write_target(root: Path, relative: str) -> Path:
    """Where a write of `relative` under `root` would land (as `resolve_inside`), refused with
    `write_forbidden` for a protected name, as typed or once symlinked folders are resolved."""
    root_r = _resolve_root(root)
    parts = _split_relative(relative)
    _refuse_protected_write(parts)
    target = _resolve_parts(root_r, parts, must_exist=False)
    _refuse_protected_write(target.relative_to(root_r).parts)
    return target


def refuse_hostile_name(relative: str) -> None:
    """What `resolve_inside` refuses about a name without touching the disk (control
    characters, NFKC tricks, `..`, absolute paths): for a walk that already knows the file is
    a regular one reached through real folders under the root."""
    _split_relative(relative)


def resolve_inside(root: Path, relative: str, *, must_exist: bool) -> Path:
    """Resolved absolute path of `relative` under `root`, or BriefDeskError.

    The result is symlink-free, strictly inside the resolved root and, if it exists, a
    regular file.
    """
    parts = _split_relative(relative)
    return _resolve_parts(_resolve_root(root), parts, must_exist=must_exist)


def _open_nofollow(path: Path | str, *, dir_fd: int | None = None) -> int:
    """os.open that refuses a trailing symlink (path_outside_scope) instead of following it."""
    flags = _flags().read
    try:
        return os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in _SYMLINK_ERRNOS:
            raise _outside("refusing to follow a symlink") from exc
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise _not_found() from exc
        raise _invalid(f"cannot open path: {exc.strerror}") from exc


def _open_subdir(parent: int, name: str, *, create: bool) -> int:
    try:
        return os.open(name, _flags().dir, dir_fd=parent)
    except OSError as exc:
        # Linux reports O_NOFOLLOW|O_DIRECTORY on a symlink as ENOTDIR, not ELOOP: ask lstat.
        with contextlib.suppress(OSError):
            if stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
                raise _outside("refusing to follow a symlinked folder") from exc
        if exc.errno == errno.ENOTDIR and create:
            raise _invalid("a parent in the path is a file, not a folder") from exc
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            raise _not_found("folder not found") from exc
        raise


def _open_dir_beneath(root_r: Path, names: Sequence[str], *, create: bool) -> int:
    """fd of root/names/..., opened one component at a time without following symlinks.

    Each folder (created ones included) is reached from its parent's fd with O_NOFOLLOW,
    so it is inside the root by construction, whatever happens to the paths meanwhile.
    """
    fd = os.open(root_r, _flags().dir)
    try:
        for name in names:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o755, dir_fd=fd)
            parent, fd = fd, -1
            try:
                fd = _open_subdir(parent, name, create=create)
            finally:
                os.close(parent)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise
    return fd


def _require_regular_fd(fd: int) -> None:
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        raise _invalid(_SPECIAL)


@contextlib.contextmanager
def open_inside(root: Path, relative: str) -> Iterator[int]:
    """A read-only descriptor of the regular file `relative` under `root`, opened one component
    at a time without following a symlink swapped in since it was resolved; closed on leaving.
    What a reader is handed (a parser in another process too) is this file, nothing else."""
    require_supported()
    root_r = _resolve_root(root)
    rel = resolve_inside(root_r, relative, must_exist=True).relative_to(root_r).parts
    dir_fd = _open_dir_beneath(root_r, rel[:-1], create=False)
    try:
        fd = _open_nofollow(rel[-1], dir_fd=dir_fd)
    finally:
        os.close(dir_fd)
    try:
        _require_regular_fd(fd)  # it may have been swapped for a FIFO since resolution
        yield fd
    finally:
        os.close(fd)


def read_text_nofollow(root: Path, relative: str, *, max_bytes: int) -> tuple[str, bool]:
    """(text, truncated): at most `max_bytes` of the file decoded as UTF-8 (replacing errors)."""
    require_supported()
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise _invalid("max_bytes must be a non-negative integer")
    with open_inside(root, relative) as fd:
        data = bytearray()
        while len(data) <= max_bytes:  # chunked: never allocate max_bytes up front
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    truncated = len(data) > max_bytes
    # Incremental decode so a cut inside a multi-byte character is dropped, not shown as �.
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    return decoder.decode(data[:max_bytes], final=not truncated), truncated


def is_temp_artifact(name: str) -> bool:
    """True for a temp file name made by `atomic_write_nofollow` (file watchers skip them)."""
    return bool(_TEMP_RE.match(name))


def _temp_prefix(name: str) -> str:
    # Shorten the stem so the temp name fits the component limit even for a 255-byte name.
    room = MAX_COMPONENT_BYTES - len("..") - _TEMP_TOKEN_HEX - len(".tmp")
    return f".{os.fsdecode(os.fsencode(name)[:room])}."


def _temp_name(name: str) -> str:
    return f"{_temp_prefix(name)}{secrets.token_hex(_TEMP_TOKEN_HEX // 2)}.tmp"


def remove_stale_temps(target: Path) -> int:
    """Remove temp files a killed write left beside `target` (between fsync and rename).

    Only regular files named like our temp files for this target are removed; returns how many.
    """
    prefix = _temp_prefix(target.name)
    removed = 0
    try:
        entries = list(os.scandir(target.parent))
    except FileNotFoundError:
        return 0
    for entry in entries:
        if (
            entry.name.startswith(prefix)
            and is_temp_artifact(entry.name)
            and entry.is_file(follow_symlinks=False)
        ):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)
                removed += 1
    return removed


def _write_all(fd: int, content: bytes) -> None:
    view = memoryview(content)
    while view:
        view = view[os.write(fd, view) :]


def _check_write_target(name: str, dir_fd: int) -> None:
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise BriefDeskError(ErrorCode.WRITE_FORBIDDEN, "refusing to replace a symlink")
    if not stat.S_ISREG(st.st_mode):
        raise _invalid(_SPECIAL)


def atomic_write_nofollow(
    root: Path,
    relative: str,
    content: bytes,
    *,
    after_durable: Callable[[], None] | None = None,
) -> Path:
    """Atomically replace root/relative with `content`; returns the final resolved path.

    temp file (O_EXCL|O_NOFOLLOW, same folder) -> fsync -> rename -> fsync folder ->
    `after_durable()`. Readers see the old or the new content, never a mix.
    """
    require_supported()
    if not isinstance(content, bytes):
        raise _invalid("content must be bytes")
    root_r = _resolve_root(root)
    parts = _split_relative(relative)
    if root_r.joinpath(*parts).is_symlink():  # even one pointing inside: never write through
        raise BriefDeskError(ErrorCode.WRITE_FORBIDDEN, "refusing to replace a symlink")
    target = _resolve_parts(root_r, parts, must_exist=False)
    rel = target.relative_to(root_r).parts
    name = rel[-1]
    if is_temp_artifact(name):
        raise _invalid("that file name is reserved for temporary files")
    # The rule holds at the moment of writing, whoever proposed the path and whatever the mode.
    _refuse_protected_write(parts)
    _refuse_protected_write(rel)
    try:
        dir_fd = _open_dir_beneath(root_r, rel[:-1], create=True)
    except PermissionError as exc:
        raise BriefDeskError(ErrorCode.WRITE_FORBIDDEN, "cannot create the folder") from exc
    tmp_name: str | None = None
    replaced = False
    try:
        _check_write_target(name, dir_fd)
        candidate = _temp_name(name)
        fd = os.open(candidate, _flags().temp, 0o644, dir_fd=dir_fd)
        tmp_name = candidate  # only ours once O_EXCL succeeded: never unlink a stranger's
        try:
            _write_all(fd, content)
            os.fsync(fd)
        finally:
            os.close(fd)
        # rename() replaces a symlink raced into `name`; it never writes through it.
        os.replace(tmp_name, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        replaced = True
        os.fsync(dir_fd)  # make the rename itself durable
    except BaseException as exc:
        if tmp_name is not None and not replaced:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name, dir_fd=dir_fd)
        if isinstance(exc, PermissionError) or getattr(exc, "errno", None) == errno.EROFS:
            raise BriefDeskError(ErrorCode.WRITE_FORBIDDEN, "the file cannot be written") from exc
        raise
    finally:
        os.close(dir_fd)
    if after_durable is not None:
        after_durable()
    return target


def remove_nofollow(
    root: Path, relative: str, *, after_durable: Callable[[], None] | None = None
) -> bool:
    """Remove the regular file root/relative (a revert of a write that created it), reached
    without following a symlink, and make the removal durable (fsync of its folder) before
    `after_durable()`. Returns False when it was already gone."""
    require_supported()
    root_r = _resolve_root(root)
    parts = _split_relative(relative)
    _refuse_protected_write(parts)
    dir_fd = _open_dir_beneath(root_r, parts[:-1], create=False)
    try:
        try:
            mode = os.stat(parts[-1], dir_fd=dir_fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return False
        if not stat.S_ISREG(mode):
            raise BriefDeskError(ErrorCode.WRITE_FORBIDDEN, "refusing to remove a non-file")
        os.unlink(parts[-1], dir_fd=dir_fd)
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    if after_durable is not None:
        after_durable()
    return True


@contextlib.contextmanager
def _regular_file_fd(path: Path) -> Iterator[int | None]:
    """The file opened without following a symlink (`path_outside_scope`), refused unless it
    is a regular file; None when it does not exist. Closed on leaving."""
    require_supported()
    try:
        fd = _open_nofollow(path)
    except BriefDeskError as exc:
        if exc.code != ErrorCode.NOT_FOUND:
            raise
        yield None
        return
    try:
        _require_regular_fd(fd)
        yield fd
    finally:
        os.close(fd)


def file_sha256(path: Path) -> str | None:
    """sha256 hex of the file, None if it does not exist; a symlink is path_outside_scope."""
    with _regular_file_fd(path) as fd:
        if fd is None:
            return None
        digest = hashlib.sha256()
        while chunk := os.read(fd, _CHUNK):
            digest.update(chunk)
        return digest.hexdigest()


def file_bytes(path: Path, *, max_bytes: int) -> bytes | None:
    """The file's bytes, read as `file_sha256` reads it (no symlink followed); None when it
    does not exist or holds more than `max_bytes`."""
    with _regular_file_fd(path) as fd:
        if fd is None:
            return None
        data = bytearray()
        while chunk := os.read(fd, _CHUNK):
            data += chunk
            if len(data) > max_bytes:
                return None
        return bytes(data)
