"""The door's mask (agent_core/home/door.py), piece by piece: what it masks, what it leaves alone,
and that masked JSON is still the same JSON. The storage boundary on a real SQLite home."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from agent_core.facade.workspace import Workspace
from agent_core.home import door
from agent_core.home.secrets import REDACTOR
from agent_core.storage.tables import sessions
from agent_core.storage.tables.checkpoints import save_state_string

MASK = "[REDACTED]"


def _secret() -> str:
    return "door-probe-" + uuid.uuid4().hex


def test_a_known_key_is_masked_in_text_and_json_and_the_json_stays_valid() -> None:
    quoted = 'pw"with\\quotes-' + uuid.uuid4().hex + "-é"  # a DB password may hold anything
    plain = _secret()
    REDACTOR.add(quoted)
    REDACTOR.add(plain)
    value = {"note": f"use {plain}", "list": [quoted, 3, None], plain: True}
    assert door.mask_incoming(value) == {
        "note": f"use {MASK}",
        "list": [MASK, 3, None],
        MASK: True,
    }
    for ensure_ascii in (True, False):
        text = json.dumps({"a": f"x {quoted} y", "b": [plain]}, ensure_ascii=ensure_ascii)
        masked = door.mask_json_text(text)
        assert json.loads(masked) == {"a": f"x {MASK} y", "b": [MASK]}
        assert quoted not in json.loads(masked)["a"] and plain not in masked
    # In a call's arguments, a key hidden behind JSON escapes is found in the decoded value.
    hidden = "".join(f"\\u{ord(c):04x}" for c in plain[:5])
    escaped = json.dumps({"k": plain}).replace(plain[:5], hidden)
    assert plain not in escaped and json.loads(door.mask_arguments(escaped)) == {"k": MASK}
    assert door.mask_json_text("{not json " + plain) == "{not json " + MASK
    clean = '{"a":  "nothing to mask"}'
    assert door.mask_json_text(clean) is clean  # untouched text keeps its exact bytes


def test_the_models_text_and_tool_call_arguments_are_masked_and_keep_their_types() -> None:
    secret = _secret()
    REDACTOR.add(secret)
    arguments = json.dumps({"query": f"checkpoints {secret}", "limit": 3})
    call = ResponseFunctionToolCall(
        type="function_call", call_id="call_1", name="search_corpus", arguments=arguments
    )
    message = ResponseOutputMessage(
        id="msg_1", type="message", role="assistant", status="completed",
        content=[ResponseOutputText(type="output_text", text=f"key {secret}", annotations=[])],
    )  # fmt: skip
    masked_call, masked_message = door.mask_model_output([call, message])
    assert isinstance(masked_call, ResponseFunctionToolCall)
    assert json.loads(masked_call.arguments) == {"query": f"checkpoints {MASK}", "limit": 3}
    assert (masked_call.call_id, masked_call.name) == ("call_1", "search_corpus")
    # Only what the model set: the SDK refuses to copy an approval whose item gained fields.
    assert masked_call.model_fields_set == call.model_fields_set
    assert isinstance(masked_message, ResponseOutputMessage)
    assert masked_message.content[0].text == f"key {MASK}"
    untouched = ResponseFunctionToolCall(
        type="function_call", call_id="c", name="search_corpus", arguments='{"query": "x"}'
    )
    assert door.mask_model_output([untouched])[0] is untouched


def test_session_items_and_the_run_state_are_masked_where_they_are_stored(tmp_path: Path) -> None:
    """The storage boundary masks whatever reaches it, whichever door it bypassed."""
    secret = _secret()
    REDACTOR.add(secret)
    ws = Workspace(tmp_path / "home")
    try:
        run_id = ws.create_run("where keys are stored")
        state = json.dumps({"items": [{"role": "assistant", "content": f"the key {secret}"}]})
        item = {"role": "user", "content": [{"type": "input_text", "text": f"k={secret}"}]}
        with ws.store.write() as conn:
            save_state_string(conn, run_id, state)
            sessions.replace_run_items(conn, "th-1", run_id, [item])
        with ws.store.read() as conn:
            assert sessions.load_items(conn, "th-1") == [
                {"role": "user", "content": [{"type": "input_text", "text": f"k={MASK}"}]}
            ]
        db = ws.store.db_path
    finally:
        ws.close()
    with sqlite3.connect(db) as conn:
        [(blob,)] = conn.execute(
            "SELECT b.data FROM blobs b JOIN runs r ON r.state_digest = b.digest "
            "WHERE r.run_id = ?",
            (run_id,),
        )
    masked = {"items": [{"role": "assistant", "content": f"the key {MASK}"}]}
    assert json.loads(bytes(blob)) == masked
