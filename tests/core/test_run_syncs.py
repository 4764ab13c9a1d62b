"""What a read call costs the store, counted through the real store (issue 43): two syncs
(checkpoint A with the turn's record and the ledger intent; the confirmation with checkpoint
B), and no read transaction but the tool's own search. Counts, not timings: a third commit or
a read of the cancel flag, of the call's row or of a kept response on the hot path fails it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.store_counts import counted_runs


def test_a_read_call_commits_twice_and_reads_only_in_its_tool(tmp_path: Path) -> None:
    _first, one, four = counted_runs(tmp_path, [1, 1, 4])  # the first also indexes the corpus
    calls = four.minus(one)  # three more read calls, start and end alike
    assert calls.syncs == 2 * 3, calls
    assert calls.write_transactions == 2 * 3, calls  # no write transaction that syncs nothing
    assert calls.reads == 1 * 3, calls  # the search body's own read of the corpus index
    assert calls.statements <= 16 * 3, calls  # 25 a call before issue 43
