"""Look and feel: Fusion with a light or dark palette that follows the system, status colours,
and one small generated icon per timeline kind (no image files to ship or load)."""

from __future__ import annotations

import os
import re
from functools import cache

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QWidget,
)

from agent_core.contract.events import EventKind
from agent_core.contract.statuses import RunStatus
from desktop.i18n import QT_TRANSLATE_NOOP

# Keyed by the enum: a StrEnum hashes as its value, so the stored status strings look up alike.
STATUS_COLOURS: dict[str, str] = {
    RunStatus.CREATED: "#6e7781",
    RunStatus.RUNNING: "#2f7be6",
    RunStatus.WAITING_APPROVAL: "#d99a00",
    RunStatus.WAITING_INPUT: "#d99a00",
    RunStatus.SUCCEEDED: "#2e9d4f",
    RunStatus.FAILED: "#d64545",
    RunStatus.CANCELLED: "#8a8f98",
    RunStatus.EXPIRED: "#8a8f98",
    RunStatus.INTERRUPTED: "#e8772e",
}

STATUS_LABELS: dict[str, str] = {
    RunStatus.CREATED: QT_TRANSLATE_NOOP(
        "Theme", "Not started"
    ),  # never driven: not a crash, nothing to recover
    RunStatus.RUNNING: QT_TRANSLATE_NOOP("Theme", "Running"),
    RunStatus.WAITING_APPROVAL: QT_TRANSLATE_NOOP("Theme", "Needs approval"),
    RunStatus.WAITING_INPUT: QT_TRANSLATE_NOOP("Theme", "Needs an answer"),
    RunStatus.SUCCEEDED: QT_TRANSLATE_NOOP("Theme", "Succeeded"),
    RunStatus.FAILED: QT_TRANSLATE_NOOP("Theme", "Failed"),
    RunStatus.CANCELLED: QT_TRANSLATE_NOOP("Theme", "Cancelled"),
    RunStatus.EXPIRED: QT_TRANSLATE_NOOP("Theme", "Expired"),
    RunStatus.INTERRUPTED: QT_TRANSLATE_NOOP("Theme", "Interrupted"),
}


def status_colour(status: str | None) -> QColor:
    return QColor(STATUS_COLOURS.get(status or "", "#8a8f98"))


def status_text_colour(status: str | None) -> str:
    """A status's colour for text on the window: readable (4.5:1) in either theme."""
    return text_colour(STATUS_COLOURS.get(status or "", "#8a8f98"))


def words(source: str) -> str:
    """A caption of this module's tables in the window's language."""
    return QCoreApplication.translate("Theme", source)


def status_label(status: str | None) -> str:
    source = STATUS_LABELS.get(status or "")
    return words(source) if source else status or ""


def category_label(category: str) -> str:
    return words(CATEGORIES[category][0])


# --- timeline kinds ----------------------------------------------------------------------------

# category -> (label, colour, glyph). Checkpoints get their own glyph per boundary (A/B).
CATEGORIES: dict[str, tuple[str, str, str]] = {
    "model": (QT_TRANSLATE_NOOP("Theme", "Model turns"), "#8e5bd6", "M"),
    "checkpoint": (QT_TRANSLATE_NOOP("Theme", "Checkpoints"), "#1f9e9a", "C"),
    "tool": (QT_TRANSLATE_NOOP("Theme", "Tool calls"), "#2f7be6", "T"),
    "approval": (QT_TRANSLATE_NOOP("Theme", "Approvals"), "#d99a00", "!"),
    "block": (QT_TRANSLATE_NOOP("Theme", "Blocks"), "#d64545", "×"),
    "recovery": (QT_TRANSLATE_NOOP("Theme", "Crash & resume"), "#e8772e", "R"),
    "artifact": (QT_TRANSLATE_NOOP("Theme", "Artifacts"), "#2e9d4f", "✓"),
    "question": (QT_TRANSLATE_NOOP("Theme", "Questions"), "#5b6ee1", "?"),
    "lifecycle": (QT_TRANSLATE_NOOP("Theme", "Lifecycle"), "#7d8590", "●"),
}

KIND_CATEGORY: dict[str, str] = {
    EventKind.MODEL_TURN: "model",
    EventKind.CHECKPOINT_SAVED: "checkpoint",
    EventKind.TOOL_CALLED: "tool",
    EventKind.TOOL_RESULT: "tool",
    EventKind.APPROVAL_REQUESTED: "approval",
    EventKind.APPROVAL_DECIDED: "approval",
    EventKind.BLOCKED: "block",
    EventKind.RUN_INTERRUPTED: "recovery",
    EventKind.RUN_RESUMED: "recovery",
    EventKind.OUTCOME_UNKNOWN: "recovery",
    EventKind.RECONCILED: "recovery",
    EventKind.ARTIFACT_CONFIRMED: "artifact",
    EventKind.ARTIFACT_UNEXPECTED: "block",
    EventKind.QUESTION_ASKED: "question",
    EventKind.ANSWER_RECEIVED: "question",
    EventKind.RUN_STARTED: "lifecycle",
    EventKind.RUN_FINISHED: "lifecycle",
}


def category_of(kind: str) -> str:
    return KIND_CATEGORY.get(kind, "lifecycle")


def category_colour(category: str) -> QColor:
    return QColor(CATEGORIES.get(category, CATEGORIES["lifecycle"])[1])


@cache
def badge_icon(colour: str, glyph: str, size: int = 16) -> QIcon:
    """A filled circle with a white glyph; cached, so each is painted once per process."""
    pixmap = QPixmap(size * 2, size * 2)  # drawn at 2x so it stays crisp on HiDPI screens
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawEllipse(QRectF(1, 1, size - 2, size - 2))
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.62))
    painter.setFont(font)
    painter.setPen(QColor("white"))
    painter.drawText(QRectF(0, 0, size, size), Qt.AlignmentFlag.AlignCenter, glyph)
    painter.end()
    return QIcon(pixmap)


def kind_icon(kind: str, boundary: str | None = None) -> QIcon:
    category = category_of(kind)
    _label, colour, glyph = CATEGORIES[category]
    if category == "checkpoint" and boundary in ("A", "B"):
        glyph = boundary
    return badge_icon(colour, glyph)


# --- palette -----------------------------------------------------------------------------------


THEME_ENV = "BRIEFDESK_THEME"  # "dark" or "light" overrides the system's and the setting's
THEME_CHOICES = (
    ("system", QT_TRANSLATE_NOOP("Theme", "As the system")),
    ("light", QT_TRANSLATE_NOOP("Theme", "Light")),
    ("dark", QT_TRANSLATE_NOOP("Theme", "Dark")),
)  # captions: words() where shown
_chosen = {"theme": "system"}  # the `ui.theme` setting, once the window has read it


def system_prefers_dark() -> bool:
    forced = os.environ.get(THEME_ENV, "").lower()
    if forced in ("dark", "light"):
        return forced == "dark"
    if _chosen["theme"] in ("dark", "light"):
        return _chosen["theme"] == "dark"
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)  # Qt 6.5+
    if scheme is not None:
        return bool(scheme() == Qt.ColorScheme.Dark)
    window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    return window.lightness() < 128


def make_palette(dark: bool) -> QPalette:
    pal = QPalette()
    if dark:
        colours = {
            QPalette.ColorRole.Window: "#1f2227",
            QPalette.ColorRole.WindowText: "#e6e8eb",
            QPalette.ColorRole.Base: "#17191d",
            QPalette.ColorRole.AlternateBase: "#22262c",
            QPalette.ColorRole.ToolTipBase: "#2b3036",
            QPalette.ColorRole.ToolTipText: "#e6e8eb",
            QPalette.ColorRole.PlaceholderText: "#9aa1ab",  # 4.5:1 and more, WCAG AA
            QPalette.ColorRole.Text: "#e6e8eb",
            QPalette.ColorRole.Button: "#2a2e35",
            QPalette.ColorRole.ButtonText: "#e6e8eb",
            QPalette.ColorRole.BrightText: "#ff6b6b",
            QPalette.ColorRole.Highlight: "#2f7be6",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.Link: "#6aa6ff",
            QPalette.ColorRole.Mid: "#3a3f47",
            QPalette.ColorRole.Dark: "#121417",
        }
    else:
        colours = {
            QPalette.ColorRole.Window: "#f3f4f6",
            QPalette.ColorRole.WindowText: "#1d2127",
            QPalette.ColorRole.Base: "#ffffff",
            QPalette.ColorRole.AlternateBase: "#f6f8fa",
            QPalette.ColorRole.ToolTipBase: "#ffffff",
            QPalette.ColorRole.ToolTipText: "#1d2127",
            QPalette.ColorRole.PlaceholderText: "#5f6670",  # 4.5:1 on the window, AA
            QPalette.ColorRole.Text: "#1d2127",
            QPalette.ColorRole.Button: "#eceef1",
            QPalette.ColorRole.ButtonText: "#1d2127",
            QPalette.ColorRole.BrightText: "#d64545",
            QPalette.ColorRole.Highlight: "#2f7be6",
            QPalette.ColorRole.HighlightedText: "#ffffff",
            QPalette.ColorRole.Link: "#1f63c4",
            QPalette.ColorRole.Mid: "#c9ced6",
            QPalette.ColorRole.Dark: "#a0a6b0",
        }
    for role, value in colours.items():
        pal.setColor(role, QColor(value))
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
    ):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#8f96a0" if dark else "#6e7781"))
    return pal


INDICATOR_OUTLINE_DARK = "#8a9099"  # an unchecked box must stand out from a dark field


class VisibleIndicators(QProxyStyle):
    """Fusion, whose check box and radio button outlines are drawn a shade darker than the
    window: on a dark palette an unchecked one vanished. Here they get a light outline."""

    _INDICATORS = (
        QStyle.PrimitiveElement.PE_IndicatorCheckBox,
        QStyle.PrimitiveElement.PE_IndicatorRadioButton,
        QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
    )

    def name(self) -> str:  # the style it is, for whoever asks ("fusion")
        base = self.baseStyle()
        return base.name() if base is not None else "fusion"

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in self._INDICATORS or not is_dark(option.palette):
            return
        rect = QRectF(option.rect).adjusted(1.5, 1.5, -1.5, -1.5)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QColor(INDICATOR_OUTLINE_DARK))
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            side = min(rect.width(), rect.height())
            painter.drawEllipse(
                QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)
            )
        else:
            painter.drawRoundedRect(rect, 2, 2)
        painter.restore()


PLAIN_STYLE = "briefdesk-plain-fusion"


def plain_style() -> QStyle:
    """Fusion itself, for a busy view with no check box or radio button: through the proxy
    above, every cell's every primitive is a call into Python (a fifth of the timeline's
    repaint, each slice of a flood). One instance, owned by the application."""
    app = QApplication.instance()
    direct = Qt.FindChildOption.FindDirectChildrenOnly  # it is the app's own child: no tree walk
    found = app.findChild(QStyle, PLAIN_STYLE, direct) if app is not None else None
    if found is not None:
        return found
    style = QStyleFactory.create("Fusion")
    style.setObjectName(PLAIN_STYLE)
    style.setParent(app)
    return style


def apply_theme(app: QApplication) -> None:
    """Fusion everywhere (it honours palettes on every platform), light or dark as the system."""
    app.setStyle(VisibleIndicators("Fusion"))
    font = app.font()
    if font.pointSizeF() < 10:
        font.setPointSizeF(10)
        app.setFont(font)
    _apply_palette(app)
    hints = QGuiApplication.styleHints()
    changed = getattr(hints, "colorSchemeChanged", None)
    if changed is not None:
        changed.connect(lambda _scheme: _apply_palette(app))


def _apply_palette(app: QApplication) -> None:
    app.setPalette(make_palette(system_prefers_dark()))
    for window in app.topLevelWidgets():
        retint(window)


def apply_choice(choice: object) -> None:
    """Follow the `ui.theme` setting ("system", "light" or "dark") at once; BRIEFDESK_THEME,
    when set, still wins."""
    wanted = str(choice) if choice in ("system", "light", "dark") else "system"
    if wanted == _chosen["theme"]:
        return
    _chosen["theme"] = wanted
    app = QApplication.instance()
    if isinstance(app, QApplication):
        _apply_palette(app)


# --- contrast (WCAG 2: relative luminance, AA asks 4.5:1 for text) ----------------------------

AA_CONTRAST = 4.5
_COLOUR_RULE = re.compile(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})")


def luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    rgb = colour.toRgb()
    red, green, blue = (channel(c) for c in (rgb.redF(), rgb.greenF(), rgb.blueF()))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: QColor, second: QColor) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable(colour: QColor | str, background: QColor) -> QColor:
    """`colour`, mixed toward white on a dark background (black on a light one) just enough
    to reach 4.5:1: its hue stays, so a warning still looks like one."""
    start = QColor(colour)
    toward = QColor("white") if background.lightness() < 128 else QColor("black")
    shown = start
    for step in range(21):
        mix = step / 20
        shown = QColor.fromRgbF(
            start.redF() + (toward.redF() - start.redF()) * mix,
            start.greenF() + (toward.greenF() - start.greenF()) * mix,
            start.blueF() + (toward.blueF() - start.blueF()) * mix,
        )
        if contrast_ratio(shown, background) >= AA_CONTRAST:
            break
    return shown


def text_colour(colour: str, background: QColor | None = None) -> str:
    """A text colour as `#rrggbb`, readable on the window (or `background`) of the palette in
    use now."""
    if background is None:
        background = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    return readable(colour, background).name()


def retint(root: QWidget) -> None:
    """Every label under `root` whose style sheet sets a text colour, made readable on its
    background again (after the palette changed, light to dark or back)."""
    labels = [root] if isinstance(root, QLabel) else []
    for label in [*labels, *root.findChildren(QLabel)]:
        sheet = label.styleSheet()
        if "color" not in sheet:
            continue
        # The palette now in use (a label's own may still be the one it was polished with).
        fixed = _readable_sheet(sheet, QGuiApplication.palette().color(label.backgroundRole()))
        if fixed != sheet:
            label.setStyleSheet(fixed)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def _readable_sheet(sheet: str, background: QColor) -> str:
    return _COLOUR_RULE.sub(lambda rule: f"color: {text_colour(rule.group(1), background)}", sheet)
