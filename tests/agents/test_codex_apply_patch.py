"""Codex's `apply_patch` read into the files it writes (the diff a person sees, and what the
write is confirmed against): pure, no agent, no store."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.tools.agent_calls.apply_patch import patch_changes
from agent_core.tools.agent_calls.kinds import FileChange


def files(**texts: str) -> dict[str, str]:
    return {f"/w/{name.replace('_', '.')}": text for name, text in texts.items()}


def changes(patch_lines: list[str], existing: dict[str, str]) -> list[FileChange]:
    patch = "\n".join(["*** Begin Patch", *patch_lines, "*** End Patch"]) + "\n"
    return patch_changes(patch, "/w", lambda path: existing.get(path))


def test_each_file_of_a_patch_after_it_in_order_the_first_being_the_target() -> None:
    existing = files(a_py="def f():\n    return 1\n\nx = 2\n", old_txt="bye\n")
    got = changes(
        [
            "*** Update File: a.py",
            "@@ def f():",
            "-    return 1",
            "+    return 3",
            "*** Add File: sub/new.txt",
            "+one",
            "+two",
            "*** Delete File: old.txt",
        ],
        existing,
    )
    assert got == [
        FileChange("/w/a.py", "def f():\n    return 3\n\nx = 2\n"),
        FileChange("/w/sub/new.txt", "one\ntwo\n"),
        FileChange("/w/old.txt", None),
    ]


def test_chunks_apply_in_turn_and_a_move_writes_the_new_path_and_deletes_the_old() -> None:
    existing = files(m_txt="a\nb\nc\nd\ne\n")
    got = changes(
        [
            "*** Update File: m.txt",
            "*** Move to: n.txt",
            "@@",
            " a",
            "-b",
            "+B",
            "@@",
            " d",
            "-e",
            "+E",
            "+F",
            "*** End of File",
        ],
        existing,
    )
    assert got == [FileChange("/w/n.txt", "a\nB\nc\nd\nE\nF\n"), FileChange("/w/m.txt", None)]


def test_as_lenient_as_codex_about_trailing_whitespace_and_a_missing_first_at_at() -> None:
    got = changes(["*** Update File: t.txt", " keep", "-old", "+new"], files(t_txt="keep  \nold\n"))
    assert got == [FileChange("/w/t.txt", "keep\nnew\n")]  # context lines as the patch has them


@pytest.mark.parametrize(
    "lines",
    [
        ["*** Update File: t.txt", "@@", "-not there", "+x"],  # a hunk that does not apply
        ["*** Update File: t.txt", "@@ no such line", "-old", "+x"],
        ["*** Update File: missing.txt", "@@", "-a", "+b"],  # a file that does not exist
        ["*** Delete File: missing.txt"],
        ["*** Add File: n.txt", "no plus"],
        ["*** Frobnicate File: t.txt"],
        ["*** Update File: t.txt"],  # changes nothing
    ],
)
def test_a_patch_codex_would_refuse_is_invalid_arguments(lines: list[str]) -> None:
    with pytest.raises(BriefDeskError) as refused:
        changes(lines, files(t_txt="keep\nold\n"))
    assert refused.value.code == ErrorCode.INVALID_ARGUMENTS


def test_without_its_begin_and_end_lines_it_is_no_patch(tmp_path: Path) -> None:
    with pytest.raises(BriefDeskError) as refused:
        patch_changes("*** Add File: a\n+x\n", str(tmp_path), lambda _path: None)
    assert refused.value.code == ErrorCode.INVALID_ARGUMENTS
