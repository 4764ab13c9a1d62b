"""Render the app icon at the usual hicolor sizes: `python packaging/make_icons.py OUT_DIR`.

Writes OUT_DIR/hicolor/NxN/apps/ICON.png for every size in `SIZES` and
OUT_DIR/hicolor/scalable/apps/ICON.svg. Each PNG is drawn from the SVG that
resources/icons/briefdesk.png was made from (resources/icons/briefdesk.svg) by Qt's SVG renderer,
offscreen, so every size is sharp, 512 px included (the PNG is 256 px). Build time only: the
bundle build (packaging/briefdesk.spec) runs it; nothing here is needed at run time.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ICON_NAME = "org.briefdesk.BriefDesk"  # the app id: the .desktop entry's Icon= names it
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
SOURCE_DIR = Path(__file__).resolve().parents[1] / "resources" / "icons"


def write_icons(out_dir: Path, icon_name: str = ICON_NAME) -> list[Path]:
    """Render every size into `out_dir/hicolor/...`; returns the files written."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])  # fonts, if the SVG asks
    svg = SOURCE_DIR / "briefdesk.svg"
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not a valid SVG")
    written: list[Path] = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)  # the whole view box, scaled to the image
        painter.end()
        target = out_dir / "hicolor" / f"{size}x{size}" / "apps" / f"{icon_name}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target)):  # PNG, by the suffix
            raise OSError(f"could not write {target}")
        written.append(target)
    scalable = out_dir / "hicolor" / "scalable" / "apps" / f"{icon_name}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    written.append(scalable)
    return written


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_icons.py OUT_DIR")
    for path in write_icons(Path(sys.argv[1])):
        print(path)
