"""Issue 44 item 5 from the CLI: a `tool_result` event carries what the tool returned, at most
4 KiB of it, control characters escaped and known secrets masked; null when it did not run.

One real offline run (a real subprocess) over a corpus of one document that holds a terminal
escape, the model key BriefDesk holds (from the environment) and far more than 4 KiB."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import CliRunner

KEY = "sk-walkthrough44" + "Q" * 32  # key-shaped, and held by BriefDesk through the env
QUESTION = "How do checkpoints make agent runs durable?"


def test_timeline_results_are_bounded_escaped_and_masked(tmp_path: Path, home: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    body = "Checkpoints make agent runs durable. " * 300  # about 11 KB
    (corpus / "checkpoints.md").write_text(
        f"# Checkpoints\n\nDurable agent runs\x1b[2J use checkpoints. Key {KEY}.\n\n{body}\n"
    )
    cli = CliRunner(home)
    env = {"BRIEFDESK_OPENAI_API_KEY": KEY}
    run = cli("--corpus", str(corpus), "run", "--question", QUESTION, env=env, check=True).body
    events = cli("timeline", run["run_id"], env=env, check=True).body["events"]
    results = [e for e in events if e["kind"] == "tool_result"]
    assert results, events
    assert all("result" in e["data"] for e in results), "every tool_result says what it returned"
    read = [e["data"]["result"] for e in results if e["tool"] == "read_document"]
    assert read and all(isinstance(text, str) for text in read), results
    text = read[0]
    assert len(text.encode("utf-8")) <= 4096 and "bytes in all)" in text, "bounded, and says so"
    assert "\x1b" not in text and "\\x1b[2J" in text, "the escape shows as text"
    assert KEY not in text and "Key " in text, "the key is masked, the words around it stay"
