"""The version of BriefDesk, from one place: the `briefdesk` distribution's metadata.

An installed wheel, an editable install and the app bundle (which carries the distribution's
metadata, see `packaging/briefdesk.spec`) all answer from `importlib.metadata`. A bare checkout
that was never installed (only on `PYTHONPATH`) reads `pyproject.toml` beside the code instead,
so `--version` never fails. Cheap: no third-party import, nothing read until asked.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "briefdesk"
UNKNOWN = "unknown"


@functools.cache
def version() -> str:
    """The installed distribution's version, e.g. "0.1.0"."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return _checkout_version() or UNKNOWN


def _checkout_version() -> str | None:
    """`[project] version` of the pyproject.toml beside the code, when this is a checkout."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        with pyproject.open("rb") as stream:
            project = tomllib.load(stream).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    found = project.get("version")
    return found if isinstance(found, str) else None
