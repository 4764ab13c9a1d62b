"""The window's side of real endpoints: presets and "Test connection" in Settings (through the
real bridge, against a real HTTP endpoint on 127.0.0.1), and streamed text as one growing
timeline entry per turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from agent_core.contract.presets import PRESETS as PROVIDER_PRESETS
from agent_core.facade.workspace import Workspace
from desktop.models.timeline_model import SUMMARY, TimelineModel
from tests.desktop.test_app_helpers import fixture_make_window  # noqa: F401  (make_window)
from tests.support.desktop import MakeWindow
from tests.support.openai_faults import FaultyOpenAI

RUN = "run-stream"


def event(seq: int, kind: str, **data: Any) -> dict[str, Any]:
    return {"seq": seq, "run_id": RUN, "kind": kind, "at": "2026-01-01T12:00:00+00:00",
            "tool": None, "data": data}  # fmt: skip


def summaries(model: TimelineModel) -> list[str]:
    display = Qt.ItemDataRole.DisplayRole
    return [str(model.index(r, SUMMARY).data(display)) for r in range(model.rowCount())]


def test_a_turns_streamed_text_grows_one_entry(qtbot: QtBot) -> None:
    model = TimelineModel()
    model.set_run(
        RUN, [event(1, "run_started"), event(2, "model_delta", turn=1, text="Hel", attempt=1)]
    )
    assert model.rowCount() == 2
    with qtbot.waitSignal(model.dataChanged, timeout=1000):
        added = model.append([event(3, "model_delta", turn=1, text="lo, ", attempt=1)])
    assert added == 0 and model.rowCount() == 2
    model.append([event(4, "model_delta", turn=1, text="world", attempt=1),
                  event(5, "model_delta", turn=1, text="!", attempt=1)])  # fmt: skip
    assert summaries(model)[-1] == "Turn 1 · Hello, world!"
    assert model.last_seq == 5
    # A retry starts the next attempt's text afresh, after the retry's own row.
    model.append([
        event(6, "model_retry", turn=1, attempt=1, wait_s=0.5, reason="HTTP 503 (unavailable)"),
        event(7, "model_delta", turn=1, text="Hi", attempt=2),
        event(8, "model_turn", turn=1, calls=[], text="Hi"),
        event(9, "model_delta", turn=2, text="Next", attempt=1),
    ])  # fmt: skip
    assert summaries(model)[2:] == [
        "Turn 1 · attempt 1 failed: HTTP 503 (unavailable) · next try in 500 ms",
        "Turn 1 · Hi",
        "Turn 1 · Hi",
        "Turn 2 · Next",
    ]
    model.append([event(9, "model_delta", turn=2, text="Next", attempt=1)])  # a repeat
    assert summaries(model)[-1] == "Turn 2 · Next"


def test_presets_fill_the_endpoint_and_test_connection_asks_it_off_the_gui_thread(
    qtbot: QtBot, home: Path, make_window: MakeWindow
) -> None:
    window = make_window(home)
    qtbot.waitUntil(lambda: bool(window.context.settings))
    window.settings_action.trigger()
    dialog = window.settings_dialog
    ollama = next(p for p in PROVIDER_PRESETS if p.key == "ollama")
    index = dialog.preset.findData("ollama")
    dialog.preset.setCurrentIndex(index)
    dialog.preset.activated.emit(index)
    assert dialog.provider.currentData() == "compatible"
    assert (dialog.base_url.text(), dialog.model_name.text()) == (ollama.base_url, ollama.model)
    assert "needs no API key" in dialog.test_result.text()
    with FaultyOpenAI() as server:
        dialog.base_url.setText(server.base_url)  # tested as shown, before it is saved
        dialog.api.setCurrentIndex(dialog.api.findData("responses"))
        dialog.test_button.click()
        qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Connected."), timeout=20_000)
        assert ollama.model in dialog.test_result.text()
        server.api_key = "sk-only-this-one-" + "q" * 16
        dialog.test_button.click()
        qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Failed."), timeout=20_000)
        assert "HTTP 401" in dialog.test_result.text()
        paths = [e.path for e in server.exchanges]
    assert paths == ["/v1/responses", "/v1/responses"]
    dialog.stream.setChecked(False)
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        dialog.save()
    ws = Workspace(home)
    stored = ws.settings()
    ws.close()
    assert (stored["model"], stored["openai.base_url"], stored["openai.model"]) == (
        "openai", server.base_url, ollama.model
    )  # fmt: skip
    assert (stored["openai.api"], stored["openai.stream"]) == ("responses", False)
