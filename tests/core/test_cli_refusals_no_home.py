"""Refused calls create no home, and names too long for the system are refused (issue 39, item 8).

The third break-in found `approvals list --run X`, `audit --run X`, `resume ''` and `run
--artifacts <too long>` creating the home they were refused on, and a path name over 255
bytes (`--home`, `--corpus`, `--artifacts`) or a `--db` host over 253 bytes or with a label
over 63 ending in a traceback. Each is now one JSON error, exit 2, and nothing on disk.
In-process (`CliRunner(home, capsys)`): the process boundary is not what is tested.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import CliResult, CliRunner

LONG_NAME = "a" * 256  # one byte over what ext4, xfs, btrfs and tmpfs hold in a name
HOSTS = {
    "a host over 253 bytes": ".".join(["h" * 60] * 5),
    "a label over 63 bytes": "h" * 64 + ".example.org",
    "an empty label": "db..example.org",
}


def _refused(result: CliResult, code: str) -> str:
    assert result.code == 2, (result.stdout, result.stderr)
    assert set(result.body) == {"api", "error"}, result.body
    assert result.body["error"]["code"] == code, result.body
    return str(result.body["error"]["message"])


@pytest.mark.parametrize(
    ("line", "code"),
    [
        (["approvals", "list", "--run", "X"], "not_found"),
        (["audit", "--run", "X"], "not_found"),
        (["resume", ""], "not_found"),
        (["approvals", "show", ""], "not_found"),
        (["mcp", "tools", "nope"], "not_found"),
        (["timeline", ""], "invalid_arguments"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else value,
)
def test_a_lookup_in_a_new_home_is_refused_and_creates_nothing(
    line: list[str], code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "not-yet"
    _refused(CliRunner(home, capsys)(*line), code)
    assert not home.exists()


@pytest.mark.parametrize(
    "line",
    [
        ["run", "--question", "q", "--artifacts", "{long}"],
        ["run", "--question", "q", "--artifacts", "{long}/briefs"],
        ["run", "--question", "q", "--corpus", "{long}"],
        ["corpus", "list", "--corpus", "{long}"],
        ["runs", "--artifacts", "{long}"],
    ],
    ids=lambda line: " ".join(line).replace("{long}", "LONG"),
)
def test_a_folder_name_too_long_is_invalid_arguments_and_creates_nothing(
    line: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "not-yet"
    long = str(tmp_path / LONG_NAME)
    message = _refused(
        CliRunner(home, capsys)(*(a.replace("{long}", long) for a in line)), "invalid_arguments"
    )
    assert "256 bytes" in message
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["--home", "BRIEFDESK_HOME"])
def test_a_home_name_too_long_is_invalid_arguments(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = tmp_path / LONG_NAME / "home"
    if where == "--home":
        result = CliRunner(long, capsys)("runs")
    else:  # the runner's own --home would win: give the environment's alone
        from agent_core.cli.main import main

        capsys.readouterr()
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("BRIEFDESK_HOME", str(long))
            code = main(["--json", "runs"])
        out, err = capsys.readouterr()
        from tests.support.cli import strict_json

        result = CliResult(code, strict_json(out), out, err)
    assert "256 bytes" in _refused(result, "invalid_arguments")
    assert sorted(tmp_path.iterdir()) == []


def test_a_path_over_the_systems_length_is_invalid_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path.joinpath(*["d" * 200] * 21)  # every name fits; the whole path does not
    _refused(CliRunner(deep, capsys)("runs"), "invalid_arguments")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("host", list(HOSTS.values()), ids=list(HOSTS))
def test_a_db_host_dns_cannot_hold_is_invalid_arguments_and_creates_nothing(
    host: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "not-yet"
    result = CliRunner(home, capsys)("--db", f"postgresql://u@{host}/x", "runs")
    assert "host" in _refused(result, "invalid_arguments")
    assert not home.exists()


def test_a_team_database_that_does_not_answer_creates_no_home(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new home is made only once its team database answered: port 1 on 127.0.0.1 refuses."""
    home = tmp_path / "not-yet"
    result = CliRunner(home, capsys)("runs", "--db", "postgresql://bd@127.0.0.1:1/team")
    assert result.code == 2, (result.stdout, result.stderr)
    assert result.body["error"]["code"] == "storage_unavailable", result.body
    assert not home.exists()
