"""The window's language: `ui.language` ("system", "en", "zh_CN"), `--lang`, and the Qt
translators. Qt's own strings (standard buttons, file dialogs) come from PySide6's shipped
qtbase_zh_CN.qm; ours from briefdesk_zh_CN.qm, compiled from the committed .ts by the package
build (setup.py: wheel, editable install, sdist) and again by `python -m desktop.i18n.build`
(dev.sh, the bundle). English is the source text: no translator."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QCoreApplication, QTranslator

LANGUAGES = ("system", "en", "zh_CN")
HERE = Path(__file__).resolve().parent
QSETTINGS_KEY = "ui/language"  # the window's mirror of `ui.language`, read before it is built
_log = logging.getLogger(__name__)
_installed: list[QTranslator] = []  # kept alive: Qt holds translators by pointer only
_active = ["en"]  # the language install_translators put in place


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """Marks `source` for lupdate under `context`; translate it where it is shown. Typed, unlike
    PySide6's (which returns object)."""
    return source


def without_mnemonic(text: str) -> str:
    """A button's or menu's text as read aloud: `&Close` -> `Close`, `关闭(&C)` -> `关闭`."""
    import re

    return re.sub("&(.)", r"\1", re.sub(r"\(&[^)]\)", "", text))


def active() -> str:
    """ "en" or "zh_CN": what the window speaks now (core_words picks its sentences by it)."""
    return _active[0]


def resolve(choice: object, environ: Mapping[str, str] | None = None) -> str:
    """ "en" or "zh_CN". `system` (or anything unknown) follows LC_ALL, then LC_MESSAGES, then
    LANG, as gettext does: the first one set decides; only a Chinese one gives Chinese."""
    if choice in ("en", "zh_CN"):
        return str(choice)
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "zh_CN" if value.lower().startswith("zh") else "en"
    return "en"


def qm_path(language: str) -> Path:
    return HERE / f"briefdesk_{language}.qm"


def install_translators(app: QCoreApplication, language: str) -> str:
    """Install the translators for `language` ("en", "zh_CN"; resolve() first); returns the
    language in use: "en" when ours is not built (one log line), so half a language never shows."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    _active[0] = "en"
    if language != "zh_CN":
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        return "en"
    ours = QTranslator(app)
    if not ours.load(str(qm_path(language))):
        _log.warning(
            "%s is not built (reinstall, or python -m desktop.i18n.build): the window stays "
            "in English",
            qm_path(language).name,
        )
        return "en"
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qt_own = QTranslator(app)
    if qt_own.load(f"qtbase_{language}", qt_dir):
        app.installTranslator(qt_own)
        _installed.append(qt_own)
    app.installTranslator(ours)
    _installed.append(ours)
    QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    _active[0] = language
    return language
