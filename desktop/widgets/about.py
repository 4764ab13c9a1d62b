"""Help > About: the versions a bug report needs."""

from __future__ import annotations

import platform

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QCoreApplication, qVersion
from PySide6.QtWidgets import QMessageBox, QWidget


def show_about(parent: QWidget) -> None:
    import agent_core  # the package version, from its metadata (agent_core.home.version)

    QMessageBox.about(
        parent,
        QCoreApplication.translate("About", "About BriefDesk"),
        f"<h3>BriefDesk {agent_core.__version__}</h3><p>"
        + QCoreApplication.translate(
            "About",
            "BriefDesk runs a local research-brief agent with a checkpoint at every tool "
            "boundary, a person's approval before every risky action, and keys in the system "
            "keyring.",
        )
        + f"</p><p><small>Qt {qVersion()} · PySide6 {pyside_version} · "
        f"Python {platform.python_version()}<br>"
        + QCoreApplication.translate("About", "Released under the MIT licence.")
        + "</small></p>",
    )
