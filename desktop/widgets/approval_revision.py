"""A revision in the approval dialog: which revision it is and what the person asked for, the
changes since the proposal sent back, and the announcement of a proposal replaced meanwhile.

A proposal made after a request for changes (`revision` > 1) says so above everything else:
"Revision 2 — you asked: …", and a second diff tab shows what changed since the revision sent
back (the first tab stays the diff against the file: what approving writes). When the
proposal shown is replaced under the open dialog (an edit from another process, or a request
for changes from elsewhere that the agent answered), the dialog says so and by whom, and
offers the new one; it never swaps it silently, and showing the new one restarts the guard.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from agent_core.contract.statuses import ApprovalStatus
from agent_core.contract.views import ApprovalView
from desktop.models.event_text import cut_words
from desktop.models.visible_text import visible_line
from desktop.widgets.approval_parts import label
from desktop.widgets.approval_text import ReviewInfo
from desktop.widgets.diff_view import DiffView

NOTE_SHOWN_CHARS = 400  # a long note is cut in the banner; its tooltip holds it whole
REVISION_STYLE = (
    "font-size: 14px; padding: 6px 8px; color: #1f2328; background: #fff8c5;"
    " border: 1px solid #d4a72c; border-radius: 4px;"
)


class RevisionPart(QObject):
    """The revision banner and the "Changes since revision n-1" tab of one dialog."""

    def __init__(self, tabs: QTabWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self.label: QLabel = label(wrap=True, style=REVISION_STYLE)  # the note: plain text
        self.label.setAccessibleName(self.tr("Revision"))
        self.label.hide()
        self.diff = DiffView()
        self.diff.browser.setAccessibleName(self.tr("Changes since the previous revision"))
        self._tabs = tabs
        self._tabs.insertTab(1, self.diff, self.tr("Changes since the previous revision"))
        self._tabs.setTabVisible(self._index(), False)

    def _index(self) -> int:
        return self._tabs.indexOf(self.diff)

    def show_for(self, info: ReviewInfo, reviewer: str) -> None:
        """Say which revision `info` shows; hide it all for a first proposal (or a revert)."""
        ap, previous = info["approval"], info.get("previous")
        if previous is None:
            self.label.hide()
            self._tabs.setTabVisible(self._index(), False)
            return
        note = visible_line(ap.get("revision_note") or "")
        shown = cut_words(note, NOTE_SHOWN_CHARS)
        asker = previous.get("reviewer")
        if asker is None or asker == reviewer:
            text = self.tr("Revision {revision} — you asked: {note}")
        else:
            text = self.tr("Revision {revision} — {reviewer} asked: {note}")
        self.label.setText(
            text.format(revision=ap["revision"], reviewer=visible_line(asker or ""), note=shown)
        )
        self.label.setToolTip(note if shown != note else "")
        self.label.show()
        content_field = ap.get("content_field")
        if not content_field or previous["content"] is None:
            self._tabs.setTabVisible(self._index(), False)
            return
        before = previous["revision"]
        self._tabs.setTabText(self._index(), self.tr("Changes since revision {n}").format(n=before))
        self._tabs.setTabVisible(self._index(), True)
        self.diff.set_texts(
            previous["content"],
            str(ap["args"].get(content_field, "")),
            old_label=self.tr("revision {n} (sent back)").format(n=before),
            new_label=self.tr("revision {n}").format(n=ap["revision"]),
        )

    @staticmethod
    def replaced(ap: ApprovalView, newest_id: str | None) -> bool:
        """A newer proposal than the one shown waits: an edit's version, or the revision that
        answers its request for changes."""
        stale = ap["status"] in (ApprovalStatus.SUPERSEDED, ApprovalStatus.CHANGES_REQUESTED)
        return stale and bool(newest_id) and newest_id != ap["id"]

    def replaced_text(self, ap: ApprovalView, newest_id: str | None) -> str:
        """The rich sentence, after the status banner's, that announces the newer proposal
        (the banner already says who edited or sent back the one shown, and when)."""
        if not self.replaced(ap, newest_id):
            return ""
        if ap["status"] == ApprovalStatus.CHANGES_REQUESTED:
            return self.tr(
                "<b>Replaced:</b> the agent answered with a new revision. Show it to read what "
                "changed; nothing is decided until you do."
            )
        return self.tr("Show the newest version to read it; nothing is decided until you do.")

    def newest_caption(self, ap: ApprovalView) -> str:
        if ap["status"] == ApprovalStatus.CHANGES_REQUESTED:
            return self.tr("Show the new revision")
        return self.tr("Show the newest version")
