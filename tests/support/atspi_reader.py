"""Reads BriefDesk's windows through AT-SPI, as a screen reader does; run by Debian's Python.

pyatspi (Debian `python3-pyatspi`) is importable only by the system Python (/usr/bin/python3),
not the venv, so tests run this file as a script on the app's private session bus and read the
JSON it prints. Every wait here is on a condition, with a deadline:

- `button NAME`: waits until the app shows a push button named NAME; prints its extents.
- `texts WINDOW`: waits until a window whose title starts with WINDOW shows a push button;
  prints every name, description and role read in it (its showing parts), and in its menu bar
  every menu and menu item, shown or not, as a screen reader would list them.
- `find NAME`: waits until the app shows a part of any role named NAME; prints its extents.
- `field NAME`: as `find`, a text field (editable) named NAME (not its label).
- `saying WORDS`: waits until a showing part's name, description or text holds WORDS; prints
  what it says (a message label's text is in its text, not its name).
- `guard DIALOG`: waits until a dialog whose title starts with DIALOG shows its push buttons;
  snapshots them (name, extents, enabled) again and again while its Approve button is disabled
  (the read guard), then until Approve is enabled, snapshots after it; prints both lists.

Extents are desktop coordinates (`queryComponent().getExtents(pyatspi.DESKTOP_COORDS)`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pyatspi  # the system Python's, see above (untyped: its objects are Any here)
from gi.repository import GLib

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for its one wait
from tests.support.waiting import wait_until

APP = "BriefDesk"
GUARDED = "Approve"
AFTER_SNAPSHOTS = 5  # the guard has ended: a few looks, to see that nothing moves after it
T = TypeVar("T")

Node = Any  # an Atspi.Accessible (pyatspi has no types)


def wait_for(what: str, find: Callable[[], T | None], timeout: float) -> T:
    found: list[T] = []

    def look() -> bool:
        try:
            now = find()
        except GLib.GError:  # an object left the tree while it was walked: look again
            return False
        if now is not None:
            found.append(now)
        return bool(found)

    wait_until(look, timeout=timeout, interval=0.05, message=f"AT-SPI: no {what} in {timeout} s")
    return found[0]


def walk(node: Node, depth: int = 0) -> Iterator[Node]:
    """Every showing descendant of `node` (read fresh: the cache would keep old states)."""
    node.clear_cache()
    yield node
    if depth > 40:
        return
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None and child.getState().contains(pyatspi.STATE_SHOWING):
            yield from walk(child, depth + 1)


def app() -> Node | None:
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        candidate = desktop.getChildAtIndex(index)
        if candidate is not None and candidate.name == APP:
            return candidate
    return None


def extents(node: Node) -> dict[str, object]:
    box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return {
        "name": node.name,
        "x": box.x,
        "y": box.y,
        "width": box.width,
        "height": box.height,
        "enabled": node.getState().contains(pyatspi.STATE_ENABLED),
    }


def push_buttons(root: Node) -> list[Node]:
    return [n for n in walk(root) if n.getRole() == pyatspi.ROLE_PUSH_BUTTON]


def find_button(name: str) -> dict[str, object] | None:
    found = app()
    if found is None:
        return None
    for button in push_buttons(found):
        if button.name == name:
            return extents(button)
    return None


def find_dialog(title: str) -> Node | None:
    found = app()
    if found is None:
        return None
    for index in range(found.childCount):
        window = found.getChildAtIndex(index)
        if window is not None and str(window.name).startswith(title):
            return window
    return None


def snapshot(dialog: Node) -> list[dict[str, object]] | None:
    """The dialog's push buttons now, or None while it has no Approve button yet."""
    buttons = [extents(b) for b in push_buttons(dialog)]
    return buttons if any(b["name"] == GUARDED for b in buttons) else None


def guarded(buttons: list[dict[str, object]]) -> bool:
    return not next(b for b in buttons if b["name"] == GUARDED)["enabled"]


def read_guard(title: str, timeout: float) -> dict[str, list[list[dict[str, object]]]]:
    dialog = wait_for(f"dialog {title!r}", lambda: find_dialog(title), timeout)
    first = wait_for("buttons in the dialog", lambda: snapshot(dialog), timeout)
    during, after = [first] if guarded(first) else [], [] if guarded(first) else [first]

    def enough() -> bool:
        now = snapshot(dialog)
        if now is not None:
            (during if guarded(now) and not after else after).append(now)
        return len(after) >= AFTER_SNAPSHOTS

    wait_until(enough, timeout=timeout, interval=0.05, message=f"AT-SPI: {GUARDED} never enabled")
    return {"during": during, "after": after}


def every(node: Node, depth: int = 0) -> Iterator[Node]:
    """`node` and all its descendants, showing or not (a closed menu's items too)."""
    node.clear_cache()
    yield node
    if depth > 40:
        return
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            yield from every(child, depth + 1)


def text_of(node: Node) -> str:
    try:
        text = node.queryText()
    except NotImplementedError:
        return ""
    return str(text.getText(0, -1))


def said(node: Node) -> dict[str, object]:
    """What a part says (and where: its extents), as a screen reader reads it."""
    try:
        where = extents(node)
    except NotImplementedError:  # a part with no place on the screen (a closed menu's item)
        where = {}
    return {
        **where,
        "role": node.getRoleName(),
        "name": node.name,
        "description": node.description,
        "text": text_of(node),
    }


def find_named(name: str, editable: bool = False) -> dict[str, object] | None:
    found = app()
    if found is None:
        return None
    return next(
        (
            said(n)
            for n in walk(found)
            if n.name == name and (not editable or n.getState().contains(pyatspi.STATE_EDITABLE))
        ),
        None,
    )


def find_saying(words: str) -> dict[str, object] | None:
    found = app()
    if found is None:
        return None
    for node in walk(found):
        if any(words in str(part or "") for part in (node.name, node.description)):
            return said(node)
        if node.getRole() in (pyatspi.ROLE_LABEL, pyatspi.ROLE_STATIC) and words in text_of(node):
            return said(node)
    return None


def read_texts(title: str, timeout: float) -> list[dict[str, object]]:
    window = wait_for(f"window {title!r}", lambda: find_dialog(title), timeout)
    wait_for("its push buttons", lambda: push_buttons(window) or None, timeout)
    found = [said(n) for n in walk(window)]
    for node in walk(window):
        if node.getRole() == pyatspi.ROLE_MENU_BAR:
            found += [said(n) for n in every(node)]
    return found


def main(argv: list[str]) -> None:
    command, argument, timeout = argv[1], argv[2], float(argv[3]) if len(argv) > 3 else 60.0
    if command == "button":
        result: object = wait_for(f"button {argument!r}", lambda: find_button(argument), timeout)
    elif command == "texts":
        result = read_texts(argument, timeout)
    elif command == "find":
        result = wait_for(f"part named {argument!r}", lambda: find_named(argument), timeout)
    elif command == "field":
        result = wait_for(f"field {argument!r}", lambda: find_named(argument, True), timeout)
    elif command == "saying":
        result = wait_for(f"part saying {argument!r}", lambda: find_saying(argument), timeout)
    elif command == "guard":
        result = read_guard(argument, timeout)
    else:
        raise SystemExit(f"unknown command {command!r}")
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
