"""The package build's one step beyond pyproject.toml: the window's translations.

Every install (`pip install .`, `pip wheel .`, pipx, the sdist built into a wheel, and an
editable install) carries desktop/i18n/briefdesk_<language>.qm, compiled from the committed .ts
by desktop/i18n/qm.py (pure Python: no PySide6 in the build environment). A normal build writes
it into the wheel's tree; an editable one beside the .ts, where the installed package reads it.
Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
I18N = Path("desktop", "i18n")


def _qm_writer() -> ModuleType:
    """desktop/i18n/qm.py, loaded by path: the app's packages are not importable here."""
    spec = importlib.util.spec_from_file_location("briefdesk_build_qm", ROOT / I18N / "qm.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithTranslations(build_py):  # type: ignore[misc]  # setuptools: no stubs here
    """build_py, then each desktop/i18n/briefdesk_*.ts compiled to its .qm."""

    def _qm_files(self, into: Path) -> dict[Path, Path]:
        """{each .qm under `into`: the .ts it is compiled from}."""
        sources = sorted((ROOT / I18N).glob("briefdesk_*.ts"))
        return {into / I18N / f"{ts.stem}.qm": ts for ts in sources}

    def run(self) -> None:
        super().run()
        writer = _qm_writer()
        # Editable: in place, beside the .ts, where the installed package reads its files.
        into = ROOT if self.editable_mode else Path(self.build_lib)
        for qm, ts in self._qm_files(into).items():
            qm.parent.mkdir(parents=True, exist_ok=True)
            writer.write_qm(ts, qm)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        built: list[str] = super().get_outputs(include_bytecode)
        qms = [str(qm) for qm in self._qm_files(Path(self.build_lib))]
        return [*built, *(qm for qm in qms if qm not in built)]

    def get_output_mapping(self) -> dict[str, str]:
        """An editable install's .qm is built in place: the wheel's path maps to that file."""
        mapping: dict[str, str] = super().get_output_mapping()
        if self.editable_mode:
            for qm in self._qm_files(Path(self.build_lib)):
                mapping[str(qm)] = str(ROOT / I18N / qm.name)
        return mapping


setup(cmdclass={"build_py": BuildPyWithTranslations})
