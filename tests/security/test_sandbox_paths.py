"""The file-tool sandbox against a hostile model: real folders, real symlinks, a real FIFO."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.home.sandbox import (
    MAX_COMPONENT_BYTES,
    MAX_PATH_CHARS,
    _open_dir_beneath,
    _open_nofollow,
    atomic_write_nofollow,
    file_sha256,
    is_temp_artifact,
    read_text_nofollow,
    resolve_inside,
)
from tests.support.ci import in_ci

OUTSIDE = ErrorCode.PATH_OUTSIDE_SCOPE
INVALID = ErrorCode.INVALID_ARGUMENTS
SECRET = b"TOP SECRET\n"


def _build_tree(base: Path) -> tuple[Path, Path]:
    """root/ with files, folders, a FIFO and symlinks to inside and outside; outside/secret.txt."""
    root, outside = base / "root", base / "outside"
    (root / "sub" / "deep").mkdir(parents=True)
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.txt").write_bytes(SECRET)
    (outside / "dir" / "secret.txt").write_bytes(SECRET)
    # A sibling whose name starts with the root's: the trap for string-prefix checks.
    (base / "root_twin").mkdir()
    (base / "root_twin" / "secret.txt").write_bytes(SECRET)
    (root / "a.txt").write_text("alpha\n")
    (root / "sub" / "b.txt").write_text("beta\n")
    (root / "sub" / "deep" / "c.txt").write_text("gamma\n")
    os.mkfifo(root / "fifo")
    links = {
        "link_in_file": "a.txt",
        "link_in_dir": "sub",
        "link_root": ".",
        "link_up": "..",
        "link_out_file": "../outside/secret.txt",
        "link_out_dir": "../outside",
        "link_abs_out": str(outside),
        "link_twin": "../root_twin",
        "link_fifo": "fifo",
        "dangling_in": "missing.txt",
        "dangling_out": "../outside/missing.txt",
        "loop1": "loop2",
        "loop2": "loop1",
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    (root / "sub" / "link_back_out").symlink_to("../../outside/secret.txt")
    (root / "sub" / "link_back_in").symlink_to("../a.txt")
    return root, outside


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _build_tree(tmp_path_factory.mktemp("sandbox"))


@pytest.fixture
def fresh(tmp_path: Path) -> tuple[Path, Path]:
    """A tree of one's own, for tests that write."""
    return _build_tree(tmp_path)


def _code(exc: pytest.ExceptionInfo[BriefDeskError]) -> str:
    return exc.value.code


REFUSED = [
    ("../x", OUTSIDE),
    ("a/../../x", OUTSIDE),
    ("sub/../a.txt", OUTSIDE),  # even a harmless '..' is refused
    ("/etc/passwd", OUTSIDE),
    ("/proc/self/environ", OUTSIDE),
    ("//server/share", OUTSIDE),
    ("C:\\x", OUTSIDE),
    ("C:/x", OUTSIDE),
    ("\\\\server\\share", OUTSIDE),
    ("a\\..\\x", OUTSIDE),
    ("sub\\b.txt", OUTSIDE),
    ("~/.ssh/id_rsa", OUTSIDE),
    ("~root/x", OUTSIDE),
    ("．．/x", OUTSIDE),  # fullwidth dots
    ("..／x", OUTSIDE),  # fullwidth slash
    ("ﬁle.txt", OUTSIDE),  # ligature: NFKC turns it into 'file.txt'
    ("a.txt\x00.png", INVALID),
    ("a\nb", INVALID),
    ("a\x7f", INVALID),
    ("a\u202etxt.exe", INVALID),  # right-to-left override
    ("", INVALID),
    ("   ", INVALID),
    (".", OUTSIDE),
    ("./", OUTSIDE),
    ("sub/..", OUTSIDE),
    ("link_root", OUTSIDE),  # a symlink to the root is the root
    ("link_up/outside/secret.txt", OUTSIDE),
    ("link_out_file", OUTSIDE),
    ("link_out_dir/secret.txt", OUTSIDE),
    ("link_out_dir/dir/secret.txt", OUTSIDE),
    ("link_abs_out/secret.txt", OUTSIDE),
    ("link_twin/secret.txt", OUTSIDE),
    ("sub/link_back_out", OUTSIDE),
    ("dangling_out", OUTSIDE),
    ("loop1", OUTSIDE),
    ("fifo", INVALID),
    ("link_fifo", INVALID),
    ("sub", INVALID),
    ("link_in_dir", INVALID),
    ("x" * 300, INVALID),
    ("é" * 128, INVALID),  # 128 characters but 256 UTF-8 bytes
    ("a/" * (MAX_PATH_CHARS // 2) + "x", INVALID),
]


@pytest.mark.parametrize(("relative", "code"), REFUSED)
@pytest.mark.parametrize("must_exist", [True, False])
def test_refused(tree: tuple[Path, Path], relative: str, code: str, must_exist: bool) -> None:
    root, _ = tree
    with pytest.raises(BriefDeskError) as exc:
        resolve_inside(root, relative, must_exist=must_exist)
    assert _code(exc) == code


@pytest.mark.parametrize("bad", [None, 3, b"a.txt", Path("a.txt")])
def test_non_string_is_invalid(tree: tuple[Path, Path], bad: object) -> None:
    with pytest.raises(BriefDeskError) as exc:
        resolve_inside(tree[0], bad, must_exist=False)  # type: ignore[arg-type]
    assert _code(exc) == INVALID


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        ("a.txt", "a.txt"),
        ("./a.txt", "a.txt"),
        ("sub//b.txt", "sub/b.txt"),
        ("sub/deep/c.txt", "sub/deep/c.txt"),
        ("é" * 127, "é" * 127),  # 254 bytes: within the limit
        # Decision: symlinks whose resolved target stays inside the root are allowed; the
        # result is the target's real path, so callers never hold a symlink.
        ("link_in_file", "a.txt"),
        ("link_in_dir/b.txt", "sub/b.txt"),
        ("link_root/link_in_dir/deep/c.txt", "sub/deep/c.txt"),
        ("sub/link_back_in", "a.txt"),
        ("dangling_in", "missing.txt"),
        ("new/dir/n.txt", "new/dir/n.txt"),
    ],
)
def test_accepted(tree: tuple[Path, Path], relative: str, expected: str) -> None:
    root, _ = tree
    must_exist = (root / expected).exists()
    assert resolve_inside(root, relative, must_exist=must_exist) == root.resolve() / expected


def test_missing_file(tree: tuple[Path, Path]) -> None:
    for relative in ("nope.txt", "dangling_in", "a.txt/child"):
        with pytest.raises(BriefDeskError) as exc:
            resolve_inside(tree[0], relative, must_exist=True)
        assert _code(exc) == ErrorCode.NOT_FOUND


def test_root_given_through_a_symlink(tree: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(tree[0])
    assert resolve_inside(tmp_path / "alias", "a.txt", must_exist=True) == tree[0] / "a.txt"


def test_read_text_and_truncation(fresh: tuple[Path, Path]) -> None:
    root, _ = fresh
    assert read_text_nofollow(root, "a.txt", max_bytes=100) == ("alpha\n", False)
    assert read_text_nofollow(root, "a.txt", max_bytes=6) == ("alpha\n", False)
    assert read_text_nofollow(root, "a.txt", max_bytes=3) == ("alp", True)
    (root / "u.txt").write_bytes("é€".encode() + b"\xff")
    assert read_text_nofollow(root, "u.txt", max_bytes=3) == ("é", True)  # no half '€'
    assert read_text_nofollow(root, "u.txt", max_bytes=99) == ("é€\ufffd", False)
    assert read_text_nofollow(root, "link_in_dir/b.txt", max_bytes=99) == ("beta\n", False)


@pytest.mark.parametrize(("relative", "code"), [("link_out_file", OUTSIDE), ("fifo", INVALID)])
def test_read_refusals(tree: tuple[Path, Path], relative: str, code: str) -> None:
    with pytest.raises(BriefDeskError) as exc:
        read_text_nofollow(tree[0], relative, max_bytes=10)
    assert _code(exc) == code


def test_open_nofollow_refuses_a_symlink(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    for link in ("link_in_file", "link_out_file", "dangling_out"):
        with pytest.raises(BriefDeskError) as exc:
            _open_nofollow(root / link)
        assert _code(exc) == OUTSIDE
    os.close(_open_nofollow(root / "a.txt"))


def test_dir_walk_refuses_a_swapped_in_symlinked_folder(tree: tuple[Path, Path]) -> None:
    """What the read sees if a checked folder is replaced by a symlink before it opens it."""
    root = tree[0].resolve()
    for create in (False, True):
        with pytest.raises(BriefDeskError) as exc:
            _open_dir_beneath(root, ["link_out_dir", "dir"], create=create)
        assert _code(exc) == OUTSIDE
    os.close(_open_dir_beneath(root, ["sub", "deep"], create=False))


def _temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if is_temp_artifact(p.name)]


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def _outside_state(root: Path) -> dict[str, bytes | None]:
    """Everything next to the root (outside/, root_twin/): must never change."""
    return {k: v for k, v in _snapshot(root.parent).items() if not Path(k).is_relative_to(root)}


def test_atomic_write_creates_and_replaces(fresh: tuple[Path, Path]) -> None:
    root, _ = fresh
    path = atomic_write_nofollow(root, "out/nested/brief.md", b"# one\n")
    assert path == root.resolve() / "out" / "nested" / "brief.md"
    assert path.read_bytes() == b"# one\n"
    assert (path.stat().st_mode & 0o777) == 0o644 & ~_umask()
    atomic_write_nofollow(root, "out/nested/brief.md", b"# two\n")
    assert path.read_bytes() == b"# two\n"
    assert atomic_write_nofollow(root, "link_in_dir/b.txt", b"via link") == root / "sub" / "b.txt"
    assert (root / "sub" / "b.txt").read_bytes() == b"via link"
    long_name = "n" * MAX_COMPONENT_BYTES  # the temp name must still fit the limit
    assert atomic_write_nofollow(root, long_name, b"x").read_bytes() == b"x"
    assert _temp_files(root) == []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_atomic_write_refuses_symlinked_parent_pointing_outside(fresh: tuple[Path, Path]) -> None:
    root, _ = fresh
    before = _outside_state(root)
    for relative in ("link_out_dir/new.txt", "link_out_dir/dir/secret.txt", "link_twin/x.txt"):
        with pytest.raises(BriefDeskError) as exc:
            atomic_write_nofollow(root, relative, b"pwned")
        assert _code(exc) == OUTSIDE
    assert _outside_state(root) == before
    assert _temp_files(root.parent) == []


@pytest.mark.parametrize(
    ("relative", "code"),
    [
        ("link_in_file", ErrorCode.WRITE_FORBIDDEN),  # even a link that stays inside
        ("dangling_in", ErrorCode.WRITE_FORBIDDEN),
        ("link_out_file", ErrorCode.WRITE_FORBIDDEN),
        ("fifo", INVALID),
        ("sub", INVALID),
        ("a.txt/child.txt", INVALID),
        (".a.txt.0123456789abcdef.tmp", INVALID),  # reserved for temp files
    ],
)
def test_atomic_write_refusals(fresh: tuple[Path, Path], relative: str, code: str) -> None:
    root, _ = fresh
    before, outside_before = _snapshot(root), _outside_state(root)
    with pytest.raises(BriefDeskError) as exc:
        atomic_write_nofollow(root, relative, b"pwned")
    assert _code(exc) == code
    assert _snapshot(root) == before
    assert _outside_state(root) == outside_before


def test_after_durable_sees_final_content(fresh: tuple[Path, Path]) -> None:
    root, _ = fresh
    seen: list[tuple[bytes, list[Path]]] = []

    def hook() -> None:
        seen.append(((root / "a.txt").read_bytes(), _temp_files(root)))

    atomic_write_nofollow(root, "a.txt", b"final", after_durable=hook)
    assert seen == [(b"final", [])]


def test_failed_write_leaves_no_temp_and_old_content(
    fresh: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = fresh

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "simulated I/O error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="simulated"):
        atomic_write_nofollow(root, "a.txt", b"half")
    monkeypatch.undo()
    assert (root / "a.txt").read_bytes() == b"alpha\n"
    assert _temp_files(root) == []


def test_file_sha256(fresh: tuple[Path, Path]) -> None:
    root, _ = fresh
    assert file_sha256(root / "empty") is None
    (root / "empty").write_bytes(b"")
    assert file_sha256(root / "empty") == hashlib.sha256(b"").hexdigest()
    assert file_sha256(root / "a.txt") == hashlib.sha256(b"alpha\n").hexdigest()
    assert file_sha256(root / "a.txt" / "child") is None
    for link in ("link_in_file", "link_out_file", "dangling_in"):
        with pytest.raises(BriefDeskError) as exc:
            file_sha256(root / link)
        assert _code(exc) == OUTSIDE
    with pytest.raises(BriefDeskError) as exc:
        file_sha256(root / "fifo")  # O_NONBLOCK: refused without hanging
    assert _code(exc) == INVALID


def test_is_temp_artifact() -> None:
    assert is_temp_artifact(".brief.md.0123456789abcdef.tmp")
    assert not is_temp_artifact("brief.md")
    assert not is_temp_artifact(".brief.md.tmp")
    assert not is_temp_artifact(".brief.md.0123456789ABCDEF.tmp")
    assert not is_temp_artifact("..0123456789abcdef.tmp")


# --- property: whatever the model sends, nothing outside the root is ever returned ---

_NAMES = [
    "a.txt", "sub", "deep", "b.txt", "c.txt", "fifo", "root", "outside", "secret.txt", "dir",
    "link_in_file", "link_in_dir", "link_root", "link_up", "link_out_file", "link_out_dir",
    "link_abs_out", "link_twin", "link_fifo", "dangling_in", "dangling_out", "loop1", "loop2",
    "link_back_out", "link_back_in", "missing.txt",
]  # fmt: skip
_TRICKS = ["..", ".", "", "/", "\\", "\x00", "~", "．．", "C:", "..\\..", "\u202e", "ﬁ"]
# Real names are listed thrice so that enough paths reach the filesystem checks.
_component = st.one_of(
    st.sampled_from(_NAMES),
    st.sampled_from(_NAMES),
    st.sampled_from(_NAMES),
    st.sampled_from(_TRICKS),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=6),
    st.text(alphabet="./\\~\x00:é．", max_size=4),
)
_hostile = st.builds(
    lambda prefix, parts: prefix + "/".join(parts),
    st.sampled_from(["", "", "", "", "", "/", "./", "~/", "\\\\"]),
    st.lists(_component, min_size=1, max_size=6),
)
# Only real entries: folders (and links to them) then a final file-ish name, so that many
# generated paths exist and reach the regular-file check.
_walk = st.builds(
    lambda dirs, leaf: "/".join([*dirs, leaf]),
    st.lists(
        st.sampled_from(["sub", "deep", "dir", "outside", "root", "link_in_dir", "link_root",
                         "link_out_dir", "link_abs_out", "link_twin", "link_up", ".", ""]),
        max_size=3,
    ),
    st.sampled_from(["a.txt", "b.txt", "c.txt", "secret.txt", "fifo", "deep", "link_in_file",
                     "link_back_in", "link_back_out", "link_out_file", "link_fifo", "loop1"]),
)  # fmt: skip
_relative = st.one_of(_hostile, _walk)


@settings(max_examples=3000, deadline=None, derandomize=in_ci())
@given(relative=_relative, must_exist=st.booleans())
def test_property_never_escapes(tree: tuple[Path, Path], relative: str, must_exist: bool) -> None:
    root = tree[0].resolve()
    try:
        path = resolve_inside(root, relative, must_exist=must_exist)
    except BriefDeskError:
        return
    real = path.resolve()
    assert real.is_relative_to(root) and real != root
    assert path == real  # callers never hold a path with a symlink in it
    if os.path.lexists(real):
        assert real.is_file() and not real.is_symlink()
    elif must_exist:
        raise AssertionError("must_exist returned a missing path")


@pytest.fixture(scope="module")
def write_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes | None]]:
    root, _ = _build_tree(tmp_path_factory.mktemp("sandbox_write"))
    return root, _outside_state(root)


@settings(max_examples=400, deadline=None, derandomize=in_ci())
@given(relative=_relative)
def test_property_writes_stay_inside(
    write_tree: tuple[Path, dict[str, bytes | None]], relative: str
) -> None:
    root, outside_before = write_tree
    try:
        path = atomic_write_nofollow(root, relative, b"model output")
    except BriefDeskError:
        pass
    else:
        assert path.resolve().is_relative_to(root.resolve())
        assert path.read_bytes() == b"model output"
    assert _outside_state(root) == outside_before
    assert _temp_files(root) == []


def test_remove_stale_temps_only_removes_our_temp_files_for_that_target(tmp_path: Path) -> None:
    from agent_core.home.sandbox import _temp_name, remove_stale_temps

    target = tmp_path / "brief.md"
    target.write_text("kept")
    stale = tmp_path / _temp_name("brief.md")
    stale.write_text("half a write")
    other = tmp_path / _temp_name("other.md")
    other.write_text("another target's temp")
    lookalike = tmp_path / ".brief.md.notours.tmp"
    lookalike.write_text("not our pattern")
    assert remove_stale_temps(target) == 1
    assert (
        not stale.exists()
        and other.exists()
        and lookalike.exists()
        and target.read_text() == "kept"
    )
