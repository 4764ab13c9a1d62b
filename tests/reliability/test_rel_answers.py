"""Issue 18, item 7: answers racing for one question; the first one wins.

Six real `briefdesk-cli answer` processes (light: `answer` never imports the Agents SDK) wait
at a start line, then answer the same `waiting_input` run at once. Exactly one exits 0; every
other one gets `question_already_answered` (exit 2) and changes nothing: one `answer_received`
event, carrying the kept answer, and the run continues with that answer. Both tests run on the
home's SQLite file and on a team PostgreSQL database named by the home's `db.url` setting.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agent_core.facade.workspace import Workspace
from tests.support.cli import REPO_ROOT, cli_env

pytestmark = pytest.mark.slow


@pytest.fixture
def home(backend_home: Path) -> Path:
    return backend_home


RACERS = 6

# Imports the CLI first, then waits for the start line: the racers answer within milliseconds.
RACER = """
import sys
from agent_core.cli import main as cli
print("ready", flush=True)
sys.stdin.readline()
sys.exit(cli.main(sys.argv[1:]))
"""


def _waiting_run(ws: Workspace, tmp_path: Path) -> str:
    script = tmp_path / "asks.json"
    script.write_text(
        json.dumps(
            [
                {"call": "ask_question", "args": {"question": "Who reads the brief?"}},
                {"say": "Done."},
            ]
        )
    )
    run = ws.start_run("Brief me on checkpoints.", model=f"scripted:{script}")
    assert run["status"] == "waiting_input", run
    return str(run["run_id"])


def test_of_racing_answers_the_first_wins_and_the_others_change_nothing(
    ws: Workspace, home: Path, tmp_path: Path
) -> None:
    run_id = _waiting_run(ws, tmp_path)
    racers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                RACER,
                "--home",
                str(home),
                "--json",
                "answer",
                run_id,
                "--text",
                f"answer number {i}",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=cli_env(),
            cwd=REPO_ROOT,
        )
        for i in range(RACERS)
    ]
    for racer in racers:
        assert racer.stdout is not None
        assert racer.stdout.readline().strip() == "ready"
    for racer in racers:
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    results = []
    for i, racer in enumerate(racers):
        out, err = racer.communicate(timeout=60)
        assert "Traceback" not in err, err
        results.append((i, racer.returncode, json.loads(out)))

    winners = [(i, body) for i, code, body in results if code == 0]
    losers = [body for _, code, body in results if code != 0]
    assert len(winners) == 1, results
    assert {(code, body["error"]["code"]) for _, code, body in results if code != 0} == {
        (2, "question_already_answered")
    }
    assert len(losers) == RACERS - 1
    [(winner, _)] = winners

    received = [e for e in ws.timeline(run_id) if e["kind"] == "answer_received"]
    assert len(received) == 1
    assert received[0]["data"]["answer"] == f"answer number {winner}"
    assert ws.run_state(run_id).answers == (
        (received[0]["data"]["call_id"], received[0]["data"]["answer"]),
    )

    done = ws.resume(run_id)
    assert done["status"] == "succeeded", done
    results_of_ask = [
        e for e in ws.timeline(run_id) if e["kind"] == "tool_result" and e["tool"] == "ask_question"
    ]
    assert results_of_ask, "the run went on with the kept answer"


def test_an_answer_after_the_first_is_refused_in_process_too(ws: Workspace, tmp_path: Path) -> None:
    from agent_core.contract.errors import BriefDeskError

    run_id = _waiting_run(ws, tmp_path)
    ws.answer(run_id, "for engineers")
    with pytest.raises(BriefDeskError) as refused:
        ws.answer(run_id, "for lawyers")
    assert refused.value.code == "question_already_answered"
    assert [e["data"]["answer"] for e in ws.timeline(run_id) if e["kind"] == "answer_received"] == [
        "for engineers"
    ]
