"""A remote model's response kept with its turn comes back as the same response (issue 29),
and is found only for the very input it answered."""

from __future__ import annotations

from pathlib import Path

from agents.items import ModelResponse
from agents.usage import Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
)
from openai.types.responses.response_reasoning_item import Summary

from agent_core.facade.workspace import Workspace
from agent_core.runs.model_turns import input_digest, response_from_json, response_json
from agent_core.storage.tables.turn_responses import recorded_response, remember_response


def _response() -> ModelResponse:
    return ModelResponse(
        output=[
            ResponseReasoningItem(
                id="rs_1", type="reasoning", summary=[Summary(text="why", type="summary_text")]
            ),
            ResponseOutputMessage(
                id="msg_1",
                type="message",
                role="assistant",
                status="completed",
                content=[
                    ResponseOutputText(type="output_text", text="Let me look.", annotations=[])
                ],
            ),
            ResponseFunctionToolCall(
                id="fc_1",
                type="function_call",
                call_id="call_7",
                name="search_corpus",
                arguments='{"query": "q", "limit": 2}',
                status="completed",
            ),
        ],
        usage=Usage(requests=1, input_tokens=10, output_tokens=5, total_tokens=15),
        response_id="resp_1",
    )


def test_a_kept_response_comes_back_item_for_item_without_its_usage() -> None:
    kept = response_from_json(response_json(_response()))
    assert kept.output == _response().output
    assert kept.response_id == "resp_1"
    assert kept.usage.total_tokens == 0  # counted once, when it arrived


def test_the_response_is_found_for_its_own_input_only(backend_home: Path) -> None:
    ws = Workspace(backend_home)
    run_id, other = (str(ws.create_run("q", model="offline")) for _ in range(2))
    view = [{"role": "user", "content": "question"}]
    first = input_digest("sys", view)
    later = input_digest("sys", [*view, {"role": "user", "content": "more"}])
    with ws.store.write() as conn:
        remember_response(conn, run_id, first, "one")
    with ws.store.write() as conn:
        remember_response(conn, run_id, later, "two")  # the next turn replaces it
    with ws.store.read() as conn:
        assert recorded_response(conn, run_id, later) == "two"
        assert recorded_response(conn, run_id, first) is None
        assert recorded_response(conn, other, later) is None
    ws.close()
