"""Runs: the form that starts one, the list of every run in the home (newest first, with its
status) and the selected run's summary (the corpus is desktop/widgets/corpus_panel.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from agent_core.contract.model_spec import model_label
from agent_core.contract.statuses import TERMINAL_RUN_STATUSES
from agent_core.contract.usage import total_usage
from agent_core.contract.views import RunView
from desktop import theme
from desktop.context import DEMO_QUESTION, FormOptions
from desktop.i18n import core_words
from desktop.i18n.dates import short_time
from desktop.models import agent_labels, event_text
from desktop.models.run_state import status_words
from desktop.models.runs_model import (
    BLOCKED_ROLE,
    DESK_ROLE,
    RUN_ID_ROLE,
    RUN_ROLE,
    USAGE_ROLE,
    RunsModel,
)
from desktop.models.usage_text import usage_text
from desktop.widgets.run_details import RunSummary

__all__ = ["RunForm", "RunSummary", "RunsPanel"]  # RunSummary: desktop/widgets/run_details.py

if TYPE_CHECKING:
    from agent_core.facade.workspace import Workspace
    from desktop.bridge import Bridge

ROW_HEIGHT = 74  # the question on up to two lines, then the status line
TITLE_LINES = 2
ICON_SIZE = 18  # an external agent's badge, before its name


class RunDelegate(QStyledItemDelegate):
    """Two lines per run: the question, then a coloured status pill, the time and the id."""

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        return QSize(option.rect.width(), ROW_HEIGHT)

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        data = index.data(RUN_ROLE)
        run: Mapping[str, object] = data if isinstance(data, dict) else {}
        status, created_at, model = (
            _text_of(run, key) for key in ("status", "created_at", "model")
        )
        palette: QPalette = option.palette
        rect: QRect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if selected:
            painter.fillRect(rect, palette.highlight())
        elif option.state & QStyle.StateFlag.State_MouseOver:
            painter.fillRect(rect, palette.alternateBase())
        colour = theme.status_colour(status)
        painter.fillRect(QRect(rect.left(), rect.top() + 6, 4, rect.height() - 12), colour)
        text_colour = palette.highlightedText().color() if selected else palette.text().color()
        left = rect.left() + 14
        width = rect.width() - 22
        icon = index.data(Qt.ItemDataRole.DecorationRole)
        if isinstance(icon, QIcon):  # an external agent's run: its badge before its name
            icon.paint(painter, QRect(left, rect.top() + 6, ICON_SIZE, ICON_SIZE))
            left += ICON_SIZE + 6
            width -= ICON_SIZE + 6
        painter.setFont(self.title_font(option))
        painter.setPen(text_colour)
        line_height = painter.fontMetrics().height()
        for number, line in enumerate(self.title_lines(option, index)):
            top = rect.top() + 6 + number * line_height
            painter.drawText(
                QRect(left, top, width, line_height), Qt.AlignmentFlag.AlignVCenter, line
            )
        small = QFont(option.font)
        small.setPointSizeF(max(7.5, option.font.pointSizeF() - 1))
        painter.setFont(small)
        metrics = painter.fontMetrics()
        label = status_words(run)
        pill = self._pill(painter, left, rect.bottom() - 24, label, colour, selected)
        blocked = index.data(BLOCKED_ROLE)
        if blocked:  # a second pill, in the colour of blocks, shortened when the row is narrow
            room = rect.right() - pill.right() - 14
            words = QCoreApplication.translate("RunDelegate", "✖ {n} blocked").format(n=blocked)
            if metrics.horizontalAdvance(words) + 14 > room:
                words = f"✖ {blocked}"
            block_colour = QColor(theme.CATEGORIES["block"][1])
            pill = self._pill(painter, pill.right() + 5, pill.top(), words, block_colour, selected)
        painter.setPen(Qt.PenStyle.NoPen)
        muted = text_colour if selected else palette.placeholderText().color()
        painter.setPen(muted)
        when = event_text.parse_time(created_at)
        stamp = short_time(when) if when else ""
        extra = f"{stamp} · {core_words.model(model_label(model))}"
        if agent_labels.is_agent(run.get("agent")):  # its session, not a model of ours
            extra = f"{stamp} · {agent_labels.short_session(_text_of(run, 'session_id'))}"
        if used := index.data(USAGE_ROLE):
            extra = f"{used} · {extra}"  # before the time: a narrow row still shows it
        desk = index.data(DESK_ROLE)
        if desk:  # another desk's run: said first, so a narrow row still shows it
            extra = QCoreApplication.translate("RunDelegate", "on {desk} · {rest}").format(
                desk=desk, rest=extra
            )
        extra_rect = QRect(
            pill.right() + 8, pill.top(), max(0, rect.right() - pill.right() - 14), 18
        )
        painter.drawText(
            extra_rect,
            Qt.AlignmentFlag.AlignVCenter,
            metrics.elidedText(extra, Qt.TextElideMode.ElideRight, extra_rect.width()),
        )
        painter.restore()

    @staticmethod
    def title_font(option: QStyleOptionViewItem) -> QFont:
        font = QFont(option.font)
        font.setBold(True)
        return font

    def title_lines(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> list[str]:
        """The run's question as the row shows it: up to two lines, cut at a word at the end."""
        metrics = QFontMetrics(self.title_font(option))
        width = option.rect.width() - 22
        if isinstance(index.data(Qt.ItemDataRole.DecorationRole), QIcon):
            width -= ICON_SIZE + 6
        return wrap_words(metrics, str(index.data()), width, TITLE_LINES)

    @staticmethod
    def _pill(
        painter: QPainter, left: int, top: int, text: str, colour: QColor, selected: bool
    ) -> QRect:
        """A rounded label, white on colour (colour on white in a selected row): its rect."""
        pill = QRect(left, top, painter.fontMetrics().horizontalAdvance(text) + 14, 18)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("white") if selected else colour)
        painter.drawRoundedRect(pill, 9, 9)
        painter.setPen(colour if selected else QColor("white"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, text)
        return pill


def _text_of(run: Mapping[str, object], key: str) -> str | None:
    value = run.get(key)
    return value if isinstance(value, str) else None


def elide_words(metrics: QFontMetrics, text: str, width: int) -> str:
    """`text` cut to `width` pixels at a word boundary, with an ellipsis (never mid-word,
    unless a single word is wider than the whole line)."""
    if metrics.horizontalAdvance(text) <= width:
        return text
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        shown = " ".join(words).rstrip(" ,;:.-–—") + "…"
        if metrics.horizontalAdvance(shown) <= width:
            return shown
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)


def wrap_words(metrics: QFontMetrics, text: str, width: int, most: int) -> list[str]:
    """`text` in lines of `width` pixels broken between words, at most `most` of them; the last
    shown line ends with an ellipsis when words are left over."""
    lines: list[str] = []
    words = text.split()
    while words and len(lines) < most - 1:
        taken = 1
        while (
            taken < len(words) and metrics.horizontalAdvance(" ".join(words[: taken + 1])) <= width
        ):
            taken += 1
        if metrics.horizontalAdvance(words[0]) > width:
            break  # one word wider than the line: the last line elides it
        lines.append(" ".join(words[:taken]))
        words = words[taken:]
    if words:
        lines.append(elide_words(metrics, " ".join(words), width))
    return lines


class RunsList(QListView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_text = self.tr(
            "No runs yet.\n\nPress Run to start one. Runs started with briefdesk-cli on this "
            "home appear here too, live."
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.model() is not None and self.model().rowCount() > 0:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().placeholderText().color())
        rect = self.viewport().rect().adjusted(16, 16, -16, -16)
        painter.drawText(
            rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.empty_text
        )
        painter.end()


class RunsPanel(QWidget):
    run_selected = Signal(object)  # run_id or None

    def __init__(self, parent: QWidget | None = None, *, bridge: Bridge | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge  # to count each finished run's blocked attempts (optional)
        self._counted: set[str] = set()
        self.model = RunsModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        head = QHBoxLayout()
        title = QLabel(self.tr("Runs"))
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        head.addWidget(title)
        head.addStretch(1)
        self.count_label = QLabel("")
        self.count_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        head.addWidget(self.count_label)
        layout.addLayout(head)
        self.view = RunsList(self)
        self.view.setModel(self.model)
        self.view.setItemDelegate(RunDelegate(self.view))
        self.view.setMouseTracking(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setUniformItemSizes(True)
        self.view.selectionModel().currentChanged.connect(self._on_current)
        layout.addWidget(self.view, 1)
        self.total_label = QLabel("")  # the home's usage, all runs summed
        self.total_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.total_label.setWordWrap(True)
        layout.addWidget(self.total_label)
        self._selected: str | None = None

    def set_this_desk(self, desk: str | None) -> None:
        """This window's desk: runs of other desks (team mode) say whose they are."""
        self.model.set_this_desk(desk)

    def set_runs(self, runs: list[RunView]) -> None:
        self.model.set_runs(runs)
        self.count_label.setText(f"{len(runs)}" if runs else "")
        total = total_usage(r["usage"] for r in runs if "usage" in r)
        self.total_label.setText(
            self.tr("All runs: {usage}").format(usage=usage_text(total)) if total["runs"] else ""
        )
        self._count_blocked(runs)
        row = self.model.row_of(self._selected)
        if row >= 0 and self.view.currentIndex().row() != row:
            self._select_row(row)

    def _count_blocked(self, runs: list[RunView]) -> None:
        """Once per finished run (it gets no new attempts): how many a boundary refused,
        from the audit log, read on the bridge thread."""
        new = {
            r["run_id"]
            for r in runs
            if r.get("status") in TERMINAL_RUN_STATUSES and r["run_id"] not in self._counted
        }
        if self.bridge is None or not new:
            return
        self._counted |= new

        def count(ws: Workspace) -> dict[str, int]:
            counts = dict.fromkeys(new, 0)
            for entry in ws.audit_entries():
                run_id = entry["run_id"]
                if entry["entry"] == "block" and run_id is not None and run_id in counts:
                    counts[run_id] += 1
            return counts

        def forget(_exc: Exception) -> None:
            self._counted -= new  # try again with the next list

        self.bridge.submit(count, on_done=self.model.set_blocked, on_error=forget)

    def select_run(self, run_id: str | None) -> None:
        row = self.model.row_of(run_id)
        self._selected = run_id
        if row >= 0:
            self._select_row(row)
        else:
            self.view.clearSelection()

    def selected_run_id(self) -> str | None:
        return self._selected

    def selected_run(self) -> RunView | None:
        return self.model.run(self._selected)

    def _select_row(self, row: int) -> None:
        index = self.model.index(row)
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        run_id = current.data(RUN_ID_ROLE) if current.isValid() else None
        if run_id == self._selected:
            return
        self._selected = run_id
        self.run_selected.emit(run_id)


class RunForm(QFrame):
    """The question and the per-run choices (model, mode, folders); Run and Stop."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runForm")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        grid = QGridLayout(self)
        grid.setContentsMargins(10, 8, 10, 8)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(6)
        self.question = QPlainTextEdit(self.tr(DEMO_QUESTION))
        self.question.setPlaceholderText(self.tr("Ask a research question about your corpus…"))
        self.question.setFixedHeight(58)
        self.question.setTabChangesFocus(True)
        grid.addWidget(QLabel(self.tr("Question")), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.question, 0, 1, 1, 4)
        self.model = QComboBox()
        self.model.addItem(self.tr("Offline (built in)"), "offline")
        self.model.addItem(self.tr("OpenAI (see Settings)"), "openai")
        self.mode = QComboBox()
        self.mode.addItem(self.tr("Default: ask before writes"), "default")
        self.mode.addItem(self.tr("Accept edits"), "acceptEdits")
        self.mode.addItem(self.tr("Skip permissions (dangerous)"), "dangerouslySkipPermissions")
        for combo in (self.model, self.mode):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(10)  # narrow windows too (1024 px laptops)
        grid.addWidget(QLabel(self.tr("Model")), 1, 0)
        grid.addWidget(self.model, 1, 1)
        grid.addWidget(QLabel(self.tr("Mode")), 1, 2)
        grid.addWidget(self.mode, 1, 3, 1, 2)
        self.run_button = QPushButton(self.tr("▶  Run"))
        self.run_button.setDefault(True)
        self.run_button.setToolTip(self.tr("Start a run with this question (Ctrl+Enter)"))
        self.run_button.setStyleSheet(
            "QPushButton { background: #2f7be6; color: white; font-weight: bold; padding: 5px 18px;"
            " border-radius: 4px; } QPushButton:disabled { background: #8fb4ea; }"
        )
        self.stop_button = QPushButton(self.tr("■  Stop"))
        self.stop_button.setToolTip(self.tr("Cancel the selected run (Ctrl+.)"))
        buttons = QVBoxLayout()  # beside the question, so the row of choices stays short
        buttons.setSpacing(4)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        grid.addLayout(buttons, 0, 5)
        self.corpus = self._folder_row(
            grid,
            2,
            self.tr("Corpus"),
            self.tr("Default: the corpus folder in Settings"),
            self.tr("Choose the corpus folder for this run"),
        )
        self.artifacts = self._folder_row(
            grid,
            3,
            self.tr("Artifacts"),
            self.tr("Default: the home's artifacts folder"),
            self.tr("Choose the artifacts folder for this run"),
        )
        grid.setColumnStretch(1, 2)
        grid.setColumnStretch(3, 3)  # the modes have the longer names
        grid.setColumnStretch(5, 0)  # Run, Stop and Browse… keep their size
        self._user_picked = False
        self.model.activated.connect(self._picked)
        self.mode.activated.connect(self._picked)

    def _folder_row(
        self, grid: QGridLayout, row: int, label: str, default: str, choose: str
    ) -> QLineEdit:
        field = QLineEdit()
        field.setPlaceholderText(default)
        field.setClearButtonEnabled(True)
        browse = QToolButton()
        browse.setText(self.tr("Browse…"))
        browse.clicked.connect(lambda: self._browse(field, choose))
        grid.addWidget(QLabel(label), row, 0)
        grid.addWidget(field, row, 1, 1, 4)
        grid.addWidget(browse, row, 5, Qt.AlignmentFlag.AlignLeft)
        return field

    def _browse(self, field: QLineEdit, title: str) -> None:
        folder = QFileDialog.getExistingDirectory(self, title)
        if folder:
            field.setText(folder)

    def _picked(self, *_args: object) -> None:
        self._user_picked = True

    def apply_settings(self, settings: Mapping[str, object]) -> None:
        if self._user_picked:
            return  # never overwrite what the person chose for this run
        self.model.setCurrentIndex(max(0, self.model.findData(settings.get("model", "offline"))))
        self.mode.setCurrentIndex(max(0, self.mode.findData(settings.get("mode", "default"))))

    def set_mode(self, mode: str) -> None:
        """Show `mode` in the Mode box, as the person's choice for the next run (a demo says
        its mode here, where every run's mode is read)."""
        self.mode.setCurrentIndex(max(0, self.mode.findData(mode)))
        self._user_picked = True

    def question_text(self) -> str:
        return self.question.toPlainText().strip()

    def options(self) -> FormOptions:
        return {
            "model": self.model.currentData(),
            "mode": self.mode.currentData(),
            "corpus": self.corpus.text().strip() or None,
            "artifacts": self.artifacts.text().strip() or None,
        }
