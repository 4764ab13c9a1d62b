"""The home folder: state.db, artifacts/, corpus/, logs/ (see the CLI contract)."""

from __future__ import annotations

import getpass
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from agent_core.preferences import Settings

HOME_ENV = "BRIEFDESK_HOME"


def _resources_dir() -> Path:
    """resources/ beside the code in a checkout; `briefdesk_resources` in an installed wheel."""
    beside = Path(__file__).resolve().parents[1]
    for name in ("resources", "briefdesk_resources"):
        if (beside / name / "corpus").is_dir():
            return beside / name
    return beside / "resources"


RESOURCES_DIR = _resources_dir()
DEMO_CORPUS_DIR = RESOURCES_DIR / "corpus"
SCRIPTS_DIR = RESOURCES_DIR / "scripts"

# The public keys and their defaults as JSON (one source: agent_core.preferences.Settings).
DEFAULT_SETTINGS: dict[str, object] = Settings().to_json()


def default_reviewer() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry (containers): still a usable name
        return "reviewer"


def default_home_dir() -> Path:
    from platformdirs import user_data_path

    return user_data_path("BriefDesk", appauthor=False)


def resolve_home_dir(explicit: str | os.PathLike[str] | None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_home_dir()


@dataclass(frozen=True)
class Home:
    root: Path

    @property
    def db_path(self) -> Path:
        return self.root / "state.db"

    @property
    def artifacts(self) -> Path:
        return self.root / "artifacts"

    @property
    def corpus(self) -> Path:
        return self.root / "corpus"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def ensure(self) -> bool:
        """Create the folders; on a new home (no state.db) copy the demo corpus in.

        Returns True when the home was new.
        """
        is_new = not self.db_path.exists()
        for folder in (self.root, self.artifacts, self.corpus, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
        if is_new and DEMO_CORPUS_DIR.is_dir():
            for doc in sorted(DEMO_CORPUS_DIR.iterdir()):
                target = self.corpus / doc.name
                if doc.is_file() and not target.exists():
                    shutil.copyfile(doc, target)
        return is_new
