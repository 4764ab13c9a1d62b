"""Regenerate the README's screenshots: `.venv/bin/python docs/make_screenshots.py`.

It makes a demo home in a temp folder with `briefdesk-cli` (a finished run with blocked
attempts, a remembered rule, a run waiting for approval), opens the real window offscreen in the
light and the dark palette, and saves grabs of the main window, the approval dialog during its
read guard, the Inbox, a revision's dialog, the Settings dialog's Team database tab, and the
Rules and Audit windows into docs/screenshots/. A third pass opens the window in Chinese
(`--lang zh_CN`'s translators) on a home of Chinese questions: main-window-zh.png and
approval-guard-zh.png. A fourth makes a Claude Code session through the real hook
(`briefdesk-cli hook claude-code` fed the CLI's captured payloads: a read, then a write that
waits) and grabs its write in the dialog and the inbox holding it: agent-write.png and
agent-inbox.png.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
QUESTION = "How do checkpoints make agent runs durable?"
# The same home in Chinese: the offline brief answers a Chinese question in Chinese.
QUESTIONS = {
    "en": (
        QUESTION,
        "Vendor notes for a reviewer",
        "What does a reviewer check before approving a write?",
    ),
    "zh_CN": (
        "检查点如何让智能体的运行经得起崩溃？",
        "给审阅者的供应商笔记",
        "批准一次写入之前，审阅者要检查什么？",
    ),
}
NOTES = {"en": "Shorter, please: three points at most.", "zh_CN": "请再短一些：最多三个要点。"}
SCREEN = {"name": "desktop", "x": 0, "y": 0, "width": 1440, "height": 900, "logicalDpi": 96}
DESK = "alice-laptop"  # the status bar names the desk: not this machine's host name
TEAM_URL = "postgresql://alice@db.example.org/research"


def cli(home: Path, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "agent_core.cli", "--home", str(home), "--json", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return dict(json.loads(done.stdout))


def make_home(folder: Path, language: str = "en") -> Path:
    question, vendor, reviewer_check = QUESTIONS[language]
    home = folder / ("home" if language == "en" else f"home-{language}")
    script = folder / "compromised.json"
    script.write_text(
        json.dumps(
            [
                {"call": "search_corpus", "args": {"query": "checkpoints"}},
                {"call": "read_document", "args": {"path": "../../../etc/passwd"}},
                {"call": "fetch_url", "args": {"url": "http://attacker.example/x"}},
                {
                    "call": "save_brief",
                    "args": {"relative_path": "team/notes.md", "content": "# Notes\n"},
                },
                {"say": "Saved."},
            ]
        )
    )
    first = cli(home, "run", "--question", vendor, "--model", f"scripted:{script}")
    approval = first["approvals"][0]  # type: ignore[index]
    cli(home, "approvals", "approve", approval["id"], "--reviewer", "alice", "--remember", "home")
    cli(home, "resume", str(first["run_id"]))
    cli(home, "run", "--question", question)  # waits for approval
    # A revision: the brief sent back once with a note, proposed again (revision 2).
    asked = cli(home, "run", "--question", reviewer_check)
    sent_back = asked["approvals"][0]  # type: ignore[index]
    cli(
        home, "approvals", "reject", sent_back["id"], "--reviewer", "alice", "--revise",
        "--reason", NOTES[language],
    )  # fmt: skip
    cli(home, "resume", str(asked["run_id"]))
    return home


def shoot(home: Path, theme: str) -> None:
    """`theme`: "light", "dark", or "zh" (the light palette, the window in Chinese)."""
    chinese = theme == "zh"
    theme = "light" if chinese else theme
    os.environ["BRIEFDESK_THEME"] = theme
    os.environ["BRIEFDESK_APPROVAL_GUARD_MS"] = "4000"  # the dialog is grabbed inside its guard
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.app import build_window, start_background
    from desktop.theme import apply_theme

    app = QApplication.instance() or QApplication([])
    apply_theme(app)  # type: ignore[arg-type]
    if chinese:
        from desktop import i18n

        i18n.install_translators(app, "zh_CN")
    settings = QSettings(str(home.parent / f"qs-{theme}.ini"), QSettings.Format.IniFormat)
    window = build_window(home, settings)
    window.resize(1280, 800)
    window.show()
    start_background(window, 200)
    suffix = "-zh" if chinese else "" if theme == "light" else "-dark"

    def waiting_run(revision: int = 1) -> dict[str, object] | None:
        return next(
            (
                r
                for r in window.context.runs.values()
                if r["status"] == "waiting_approval"
                and r["approvals"]
                and r["approvals"][0].get("revision") == revision
            ),
            None,
        )

    def step(n: int = 0) -> None:
        run = waiting_run()
        if run is None or window.timeline.model.rowCount() == 0:
            if n > 200:
                raise SystemExit("the demo home never loaded")
            QTimer.singleShot(100, lambda: step(n + 1))
            return
        window.select_run(str(run["run_id"]))
        QTimer.singleShot(1500, lambda: main_and_dialog(run))

    def main_and_dialog(run: dict[str, object]) -> None:
        window.grab().save(str(OUT / f"main-window{suffix}.png"))
        window.prompts.open_for(run, force=True)
        dialog = window.prompts.dialog
        if dialog is not None:
            dialog.resize(1000, 640)
        QTimer.singleShot(2000, grab_dialog)  # inside the guard: Approve counts down

    def grab_dialog() -> None:
        dialog = window.prompts.dialog
        if dialog is not None and theme == "light":
            dialog.grab().save(str(OUT / f"approval-guard{suffix}.png"))
        if chinese:  # the window and the dialog in Chinese are enough for the README
            window.close()
            app.quit()
            return
        QTimer.singleShot(300, inbox)

    def inbox() -> None:
        if window.prompts.dialog is not None:
            window.prompts.dialog.close()
        window.centre_tabs.show_inbox()
        QTimer.singleShot(1500, grab_inbox)

    def grab_inbox() -> None:
        window.grab().save(str(OUT / f"inbox{suffix}.png"))
        revised = waiting_run(2)
        if revised is None:
            raise SystemExit("the demo home has no revision waiting")
        window.select_run(str(revised["run_id"]))
        window.prompts.open_for(revised, force=True)
        dialog = window.prompts.dialog
        if dialog is not None:
            dialog.resize(1000, 680)
        QTimer.singleShot(2000, grab_revision)

    def grab_revision() -> None:
        dialog = window.prompts.dialog
        if dialog is not None:
            dialog.grab().save(str(OUT / f"approval-revision{suffix}.png"))
        QTimer.singleShot(300, team_settings if theme == "light" else records)

    def team_settings() -> None:
        if window.prompts.dialog is not None:
            window.prompts.dialog.close()
        window.open_settings()
        window.settings_dialog.show_team()
        window.settings_dialog.team_box.url_field.setText(TEAM_URL)  # typed, not yet saved
        QTimer.singleShot(800, grab_team_settings)

    def grab_team_settings() -> None:
        window.settings_dialog.grab().save(str(OUT / "settings-team.png"))
        window.settings_dialog.reject()
        QTimer.singleShot(300, records)

    def records() -> None:
        if window.prompts.dialog is not None:
            window.prompts.dialog.close()
        window.open_rules()
        window.open_audit()
        window.audit_window.set_filters(run_id="")
        QTimer.singleShot(1500, grab_records)

    def grab_records() -> None:
        from PySide6.QtGui import QPainter, QPixmap

        rules, audit = window.rules_window.grab(), window.audit_window.grab()
        both = QPixmap(max(rules.width(), audit.width()), rules.height() + audit.height() + 12)
        both.fill(window.palette().window().color())
        painter = QPainter(both)
        painter.drawPixmap(0, 0, rules)
        painter.drawPixmap(0, rules.height() + 12, audit)
        painter.end()
        both.save(str(OUT / f"rules-and-audit{suffix}.png"))
        window.close()
        app.quit()

    QTimer.singleShot(500, step)
    app.exec()


AGENT_PAYLOADS = ROOT / "tests" / "agents" / "payloads" / "claude-code"
AGENT_NOTES = "# Release notes\n\n- Faster start\n- Fewer prompts\n"
AGENT_WRITE = "# Release notes\n\n- Faster start\n- Fewer prompts\n- Decisions for Claude Code\n"


def start_agent_session(folder: Path) -> tuple[Path, list[subprocess.Popen[str]]]:
    """A Claude Code session on a new home, made by the real hook: a Read (answered at once)
    and a Write of ~/project/NOTES.md, whose hook waits for a person (killed after the shots)."""
    home, project = folder / "home-agents", folder / "project"
    project.mkdir()
    (project / "NOTES.md").write_text(AGENT_NOTES, encoding="utf-8")
    session, waiting = "704d1a28-bf6a-4a77-969a-8c1b3adaf338", []
    for name, tool_input in (
        ("pre_tool_read", {"file_path": str(project / "NOTES.md")}),
        ("pre_tool_write", {"file_path": str(project / "NOTES.md"), "content": AGENT_WRITE}),
    ):
        text = (AGENT_PAYLOADS / f"{name}.json").read_text(encoding="utf-8")
        text = text.replace("{cwd}", str(project)).replace("{home}", str(folder))
        payload = json.loads(text.replace("{project}", "-project"))
        payload.update(session_id=session, tool_input=tool_input)
        hook = subprocess.Popen(
            [sys.executable, "-m", "agent_core.cli", "--home", str(home), "hook", "claude-code"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            cwd=ROOT,
        )
        assert hook.stdin is not None
        hook.stdin.write(json.dumps(payload))
        hook.stdin.close()
        if name == "pre_tool_read":
            hook.wait(60)  # a read passes at once: the session's run exists before the write
        else:
            waiting.append(hook)
    return home, waiting


def shoot_agents(home: Path) -> None:
    """The Claude Code write in the approval dialog, then the inbox holding it."""
    os.environ["BRIEFDESK_THEME"] = "light"
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from desktop.app import build_window, start_background
    from desktop.theme import apply_theme

    app = QApplication.instance() or QApplication([])
    apply_theme(app)  # type: ignore[arg-type]
    settings = QSettings(str(home.parent / "qs-agents.ini"), QSettings.Format.IniFormat)
    window = build_window(home, settings)
    window.resize(1280, 800)
    window.show()
    start_background(window, 200)

    def step(n: int = 0) -> None:
        run = next(
            (r for r in window.context.runs.values() if r["approvals"]),
            None,
        )
        if run is None or window.timeline.model.rowCount() == 0:
            if n > 300:
                raise SystemExit("the agent's write never showed")
            QTimer.singleShot(100, lambda: step(n + 1))
            return
        window.select_run(str(run["run_id"]))
        window.prompts.open_for(run, force=True)
        dialog = window.prompts.dialog
        if dialog is not None:
            dialog.resize(1000, 640)
        QTimer.singleShot(2500, grab_dialog)

    def grab_dialog() -> None:
        dialog = window.prompts.dialog
        if dialog is not None:
            dialog.grab().save(str(OUT / "agent-write.png"))
            dialog.close()
        window.centre_tabs.show_inbox()
        QTimer.singleShot(1500, grab_inbox)

    def grab_inbox() -> None:
        window.grab().save(str(OUT / "agent-inbox.png"))
        window.close()
        app.quit()

    QTimer.singleShot(500, step)
    app.exec()


def agent_shots(tmp: Path, env: dict[str, str]) -> None:
    """agent-write.png and agent-inbox.png (alone: `make_screenshots.py --agents`)."""
    # The session's folder reads ~/project, as on a person's machine.
    env["HOME"] = str(tmp)
    home, waiting = start_agent_session(tmp)
    try:
        subprocess.run(
            [sys.executable, __file__, "agents", str(home)], cwd=ROOT, check=True, env=env
        )
    finally:
        for hook in waiting:  # still waiting for a decision nobody makes here
            hook.kill()
            hook.wait()


def main() -> None:
    os.environ.setdefault("BRIEFDESK_DESK", DESK)  # for briefdesk-cli's runs and the window
    theme = sys.argv[1] if len(sys.argv) > 1 else None
    if theme == "--agents":
        with tempfile.TemporaryDirectory() as tmp:
            screen = Path(tmp) / "screen.json"
            screen.write_text(json.dumps({"screens": [SCREEN]}))
            agent_shots(
                Path(tmp), {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}
            )
        return
    if theme is None:  # one process per palette: a QApplication's palette is set once
        with tempfile.TemporaryDirectory() as tmp:
            home = make_home(Path(tmp))
            # An offscreen screen of a desktop monitor's size (the default one is 800x800).
            screen = Path(tmp) / "screen.json"
            screen.write_text(json.dumps({"screens": [SCREEN]}))
            env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}
            for each in ("light", "dark"):
                subprocess.run(
                    [sys.executable, __file__, each, str(home)], cwd=ROOT, check=True, env=env
                )
            home_zh = make_home(Path(tmp), "zh_CN")
            subprocess.run(
                [sys.executable, __file__, "zh", str(home_zh)], cwd=ROOT, check=True, env=env
            )
            agent_shots(Path(tmp), env)
        return
    if theme == "agents":
        shoot_agents(Path(sys.argv[2]))
        return
    shoot(Path(sys.argv[2]), theme)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
