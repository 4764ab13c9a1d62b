"""The home folder: state.db, artifacts/, corpus/, logs/ (see the CLI contract)."""

from __future__ import annotations

import errno
import getpass
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from agent_core.contract.errors import OUT_OF_SPACE_ERRNOS, BriefDeskError, ErrorCode, storage_full
from agent_core.home.preferences import Settings

HOME_ENV = "BRIEFDESK_HOME"


def _resources_dir() -> Path:
    """resources/ beside the code in a checkout; `briefdesk_resources` in an installed wheel."""
    beside = Path(__file__).resolve().parents[2]
    for name in ("resources", "briefdesk_resources"):
        if (beside / name / "corpus").is_dir():
            return beside / name
    return beside / "resources"


RESOURCES_DIR = _resources_dir()
DEMO_CORPUS_DIR = RESOURCES_DIR / "corpus"
SCRIPTS_DIR = RESOURCES_DIR / "scripts"

# The public keys and their defaults as JSON (one source: agent_core.home.preferences.Settings).
DEFAULT_SETTINGS: dict[str, object] = Settings().to_json()


def default_reviewer() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry (containers): still a usable name
        return "reviewer"


def default_home_dir() -> Path:
    from platformdirs import user_data_path

    return user_data_path("BriefDesk", appauthor=False)


NAME_MAX = 255  # bytes in one name of a path (ext4, xfs, btrfs, tmpfs: all the same)
PATH_MAX = 4096  # bytes in a whole path the kernel takes, its final NUL included


def check_path_names(path: str | os.PathLike[str], what: str) -> None:
    """Refuse a path no file system here can hold (a name over 255 bytes, a path over 4,095),
    before anything is created: stat() and mkdir() answer such a path with ENAMETOOLONG."""
    raw = os.fsencode(os.path.expanduser(os.fspath(path)))
    longest = max(raw.split(b"/"), key=len)
    if len(longest) <= NAME_MAX and len(raw) < PATH_MAX:
        return
    name = os.fsdecode(longest)
    shown = name if len(name) <= 40 else name[:40] + "…"
    raise BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        f"The {what} cannot be there: "
        + (
            f"its name {shown!r} has {len(longest)} bytes, over the {NAME_MAX} a file system "
            "allows."
            if len(longest) > NAME_MAX
            else f"its path has {len(raw)} bytes, over the {PATH_MAX - 1} the system allows."
        ),
    )


def resolve_home_dir(explicit: str | os.PathLike[str] | None) -> Path:
    """The home folder: `explicit` (--home), else $BRIEFDESK_HOME, else the user data folder.

    An empty `explicit` is refused: `--home=` is a mistake, never "the default home". An empty
    $BRIEFDESK_HOME counts as unset, as the XDG variables do (`BRIEFDESK_HOME= cmd` unsets it).
    """
    if explicit is not None:
        if not os.fspath(explicit).strip():
            raise BriefDeskError(
                ErrorCode.INVALID_ARGUMENTS,
                "The home folder is empty: give a folder with --home DIR, or leave --home out "
                "to use $BRIEFDESK_HOME or the default home.",
            )
        check_path_names(explicit, "BriefDesk home")
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(HOME_ENV, "")
    if env.strip():
        check_path_names(env, "BriefDesk home")
        return Path(env).expanduser().resolve()
    return default_home_dir()


def _folder_error(folder: Path, what: str, exc: OSError) -> BriefDeskError:
    """An OSError met while creating `what` (a home, an artifacts folder) as a stable code."""
    if exc.errno in OUT_OF_SPACE_ERRNOS:
        return storage_full(f"No space left to create the {what} {folder}.")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return BriefDeskError(
            ErrorCode.STORAGE_READ_ONLY,
            f"Cannot create the {what} {folder}: {exc.strerror} (a read-only disk or folder). "
            "Choose a folder you can write.",
        )
    return BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS, f"{folder} cannot be the {what}: {exc.strerror}."
    )


def refuse_non_folder(folder: Path, what: str) -> None:
    """`folder` is, or lies under, something that is not a folder: say which (stat only)."""
    check_path_names(folder, what)
    probe = folder
    while not os.path.lexists(probe) and probe.parent != probe:
        probe = probe.parent
    if probe.is_dir():
        return
    where = "is" if probe == folder else f"lies under {probe}, which is"
    raise BriefDeskError(
        ErrorCode.INVALID_ARGUMENTS,
        f"{folder} cannot be the {what}: it {where} a file, not a folder.",
    )


def prepare_folder(folder: Path, what: str) -> Path:
    """Create `folder` (and its parents) for `what`, or refuse it with a stable code."""
    refuse_non_folder(folder, what)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _folder_error(folder, what, exc) from None
    return folder


def existing_folder(folder: Path, what: str) -> Path:
    """`folder` when it is an existing folder; `not_found` when missing, refused when a file."""
    if folder.is_dir():
        return folder
    refuse_non_folder(folder, what)  # a file, or under one: invalid_arguments
    raise BriefDeskError(ErrorCode.NOT_FOUND, f"The {what} {folder} does not exist.")


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

    @property
    def own_files(self) -> tuple[Path, ...]:
        """What no run may write into or over: the store (with its -wal/-shm beside it), the
        logs and the home's corpus."""
        return (self.db_path, self.logs, self.corpus)

    def check(self) -> None:
        """Refuse a folder that can never be a home, before anything is created (stat only):
        a file, a path under a file, a home whose corpus/logs/artifacts is a file."""
        refuse_non_folder(self.root, "BriefDesk home")
        for folder in (self.artifacts, self.corpus, self.logs):
            if os.path.lexists(folder) and not folder.is_dir():
                raise BriefDeskError(
                    ErrorCode.INVALID_ARGUMENTS,
                    f"{self.root} cannot be a BriefDesk home: it holds a file named "
                    f"{folder.name!r} where its {folder.name} folder belongs. Move that file "
                    "away or choose another --home.",
                )

    def ensure(self) -> bool:
        """Create the folders; on a new home (no state.db) copy the demo corpus in.

        Returns True when the home was new. A folder that cannot be a home is refused with a
        stable code (`invalid_arguments`, `storage_read_only`, `storage_full`), never an OSError.
        """
        self.check()
        is_new = not self.db_path.exists()
        try:
            for folder in (self.root, self.artifacts, self.corpus, self.logs):
                folder.mkdir(parents=True, exist_ok=True)
            if is_new and DEMO_CORPUS_DIR.is_dir():
                for doc in sorted(DEMO_CORPUS_DIR.iterdir()):
                    target = self.corpus / doc.name
                    if doc.is_file() and not target.exists():
                        shutil.copyfile(doc, target)
        except OSError as exc:
            raise _folder_error(self.root, "BriefDesk home", exc) from None
        return is_new

    def overlap(self, artifacts: Path) -> Path | None:
        """The home's own file or folder that an artifacts folder at `artifacts` would hold
        or lie inside (None when there is none): writes there could replace the store."""
        folder = artifacts.resolve()
        for own in self.own_files:
            own = own.resolve()
            if own.is_relative_to(folder) or folder.is_relative_to(own):
                return own
        return None

    def check_artifacts(
        self, artifacts: Path, code: ErrorCode = ErrorCode.INVALID_ARGUMENTS
    ) -> None:
        """Refuse an artifacts folder that holds or lies inside the home's store, logs or corpus
        (`--artifacts HOME` once let a model write `.bashrc` beside state.db)."""
        own = self.overlap(artifacts)
        if own is not None:
            raise BriefDeskError(
                code,
                f"The artifacts folder {artifacts} holds or lies inside this home's {own.name} "
                f"({own}); briefs are never written there. Choose another folder, such as "
                f"{self.artifacts}.",
            )
