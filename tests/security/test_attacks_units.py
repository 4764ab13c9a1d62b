"""Fast, in-process checks of each boundary the attack suite crosses, case by case.

The same script (tests/fixtures/attacks/script.json) drives these: every call it expects to be
refused is fed to the real validator (`validate_call`, or the unknown-tool check) on the same
malicious layout, and must raise the expected code with the expected rule, and name the
expected normalized resource for the block log. No SDK, no subprocess.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.corpus import index as corpus_index
from agent_core.corpus import search as corpus_search
from agent_core.corpus.reading import MAX_READ_CHARS
from agent_core.home.preferences import Settings
from agent_core.home.sandbox import read_text_nofollow
from agent_core.runs.call_records import RULE_FOR_CODE
from agent_core.tools import read_document
from agent_core.tools.specs import ToolEnv, ToolScope
from agent_core.tools.validation import describe_resource, validate_call
from tests.fixtures.attacks.layout import (
    TAIL_WORD,
    Case,
    World,
    build_world,
    cases_of,
    filled_script,
    write_huge,
)

MODE = "unit"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(tmp_path_factory.mktemp("attack-units"), (MODE,), huge=False)


def _cases() -> list[Case]:
    world = World(Path("/placeholder"))
    return [
        c
        for c in cases_of(filled_script({**world.slots(MODE, 9, 9), "MEGABYTE": "x"}))
        if c.blocked
    ]


def _filled(case: Case, world: World) -> Case:
    """The template case with this world's paths (and the real megabyte) filled in."""
    script = filled_script(world.slots(MODE, 9, 9))
    return next(c for c in cases_of(script) if c.name == case.name)


def _rule(error: BriefDeskError) -> str:
    return str(error.details.get("rule") or RULE_FOR_CODE[ErrorCode(error.code)])


@pytest.mark.parametrize("template", _cases(), ids=lambda c: c.name)
def test_each_refused_case_is_refused_by_validation(template: Case, world: World) -> None:
    case = _filled(template, world)
    raw = json.dumps(case.args, ensure_ascii=False)
    settings = Settings()
    with pytest.raises(BriefDeskError) as caught:
        validate_call(case.tool, raw, ToolScope(world.corpus, world.artifacts(MODE), settings))
    assert (caught.value.code, _rule(caught.value)) == (case.expect["code"], case.expect["rule"])
    if "resource" in case.expect and case.tool in ("read_document", "save_brief", "fetch_url"):
        resource = describe_resource(
            case.tool, raw, corpus=world.corpus, artifacts=world.artifacts(MODE)
        )
        assert resource == case.expect["resource"]


def test_the_legit_write_passes_validation_and_resolves_inside_artifacts(world: World) -> None:
    args, target = validate_call(
        "save_brief",
        {"relative_path": "briefs/legit.md", "content": "# ok\n"},
        ToolScope(world.corpus, world.artifacts(MODE), Settings()),
    )
    assert target == str(world.artifacts(MODE).resolve() / "briefs" / "legit.md")
    assert args == {"relative_path": "briefs/legit.md", "content": "# ok\n"}


def test_a_50mb_document_is_read_truncated_without_loading_it(world: World, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_huge(corpus / "huge.md", 50 * 1024 * 1024)
    tracemalloc.start()
    try:
        result = read_document.run(_env(corpus), read_document.ReadArgs(path="huge.md"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.outcome == "degraded"
    assert result.summary["truncated"] is True
    assert int(str(result.summary["chars"])) <= MAX_READ_CHARS
    assert peak < 2 * 1024 * 1024, f"reading a 50 MB document peaked at {peak} bytes"


def test_a_50mb_document_is_indexed_by_its_head_only(tmp_path: Path) -> None:
    from agent_core.facade.workspace import Workspace

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_huge(corpus / "huge.md", 50 * 1024 * 1024)
    tracemalloc.start()  # the read the indexer does: bounded by MAX_INDEX_BYTES
    try:
        head, truncated = read_text_nofollow(
            corpus, "huge.md", max_bytes=corpus_index.MAX_INDEX_BYTES
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert truncated and len(head) <= corpus_index.MAX_INDEX_BYTES
    # A few copies of the 2 MB head (bytes, slice, str), never the 50 MB file.
    assert peak < 8 * corpus_index.MAX_INDEX_BYTES, f"reading the head peaked at {peak} bytes"
    ws = Workspace(tmp_path / "home")
    try:
        assert corpus_index.reindex(ws.desk_store, corpus)["indexed"] == 1
        with ws.desk_store.read() as conn:
            # A rare word: FTS5 snippet() over a head full of hits takes seconds (see the
            # known limits in docs/threat-model.md).
            hits = corpus_search.search(conn, corpus, "dump", 5)
            tail_hits = corpus_search.search(conn, corpus, TAIL_WORD, 5)
    finally:
        ws.close()
    assert [h["source_id"] for h in hits] == ["huge.md"]  # search degrades, it does not fail
    assert tail_hits == []  # the tail was never read


def test_a_megabyte_argument_is_refused_before_parsing_for_every_tool(world: World) -> None:
    for tool, key in (("save_brief", "content"), ("search_corpus", "query"), ("fetch_url", "url")):
        raw = json.dumps({key: world.megabyte})
        with pytest.raises(BriefDeskError) as caught:
            validate_call(
                tool,
                raw,
                ToolScope(world.corpus, world.artifacts(MODE), Settings()),
            )
        assert caught.value.code == ErrorCode.INVALID_ARGUMENTS
        assert world.megabyte[:100] not in caught.value.message


def test_describe_resource_is_bounded_and_printable(world: World) -> None:
    raw = json.dumps({"path": "a\u202e" + "b" * 5000 + "\n"})
    shown = describe_resource(
        "read_document", raw, corpus=world.corpus, artifacts=world.artifacts(MODE)
    )
    assert shown is not None and len(shown) <= 201
    assert "\u202e" not in shown and "\\u202e" in shown
    junk = "{" + "z" * 1_000_000
    shown = describe_resource(
        "save_brief", junk, corpus=world.corpus, artifacts=world.artifacts(MODE)
    )
    assert shown is not None and len(shown) <= 201


def _env(corpus: Path) -> ToolEnv:
    """A read needs no store: the body reads the file through the sandbox only."""
    scope = ToolScope(corpus, corpus.parent / "artifacts", Settings())
    return ToolEnv(store=None, scope=scope, run_id="run-t", call_id="c1", target=None)  # type: ignore[arg-type]
