"""The artifact watcher: confirm that every approved write happened, and happened once.

A watchdog observer watches an artifacts root. Each file event is settled briefly (a plain
write arrives as created + modified + closed; an atomic replace as one moved event whose
`dest_path` is the artifact), then the file is *sighted*: its path, the sha256 of its content
and `inode_key = f"{st_ino}:{st_mtime_ns}"` (one physical write). Temp files of
`atomic_write_nofollow` are skipped, and so are symlinks, folders and special files.

A sighting is matched to the side-effect ledger by path and content hash (a `save_brief` entry
whose status is `started` or `confirmed`: a write that a person or a rule approved):

- the first sighting of an approved write records `artifact_confirmed` (`count` 1) on the run
  that owns the ledger entry, whichever process saw it;
- a further physical write of the same approved content (a new inode or mtime) is a
  **duplicate**: `artifact_confirmed` again on the owning run, with `count` N (N >= 2) and
  `duplicate: true`. We chose this over `artifact_unexpected` because the contract says the
  confirmed event tells "how many times" an approved write was seen;
- any other write is `artifact_unexpected` (`reason`: `no_approved_write`, or `content_differs`
  when the path has approved writes but none with this content). It is recorded on the
  watcher's own run when the watcher was started for a run (the CLI's `run`/`resume`). A watcher
  without a run (the desktop app) records it on every run in progress (started, not ended)
  whose artifacts folder holds the path; when no run is in progress there, it is an event of
  the home itself (`run_id` null; `Workspace.home_events()`), never one of an unrelated finished
  run.

Nothing is ever recorded on a run that no process has claimed yet (`created`): its first event
is the lifecycle's `run_started`. A watcher started for a run therefore holds its sightings
until that run's `run_started`/`run_resumed` commits (it follows the store's events).

Every sighting is inserted into `artifact_sightings` with ON CONFLICT DO NOTHING in the same
write transaction as its event, so a GUI and a CLI watching at once, or a watcher restarted
over the same files, count one physical write once. `start()` also scans the root, so writes
made while nothing watched (by a process that then crashed) are confirmed or flagged too. That
scan runs in the background (a run starts at once, whatever the folder holds), reads each file
not yet sighted in batches, and reports more than `SUMMARY_OVER` stray files found in it as ONE
`artifact_unexpected` event with `summary: true` (`path`: the folder, `count`: how many files,
`examples`: a few relative paths); every such file still gets its sighting row (the artifacts
panel shows it as unexpected). Tampered approved files (`content_differs`) are always reported
one by one. Symlinks are never followed, special files (fifos, sockets, devices) are never
opened, and pseudo file systems (agent_core/home/mounts.py) are never entered.

API: `ArtifactWatcher(store, root, run_id=None)` with `start()` (observe, then scan in the
background; `scanned` is set when that scan ended), `stop()` and `scan()`; `watching(store,
root, run_id=None)` (a context manager); `drive_watched(ws, run_id)` (what `briefdesk-cli
run`/`resume` call); `wait_for_confirmations(store, run_id, timeout=2.0)`;
`artifact_states(store, root)` for the desktop's artifacts panel. No Qt here.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, Connection, func, select, true
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from agent_core.contract.events import Event, EventKind
from agent_core.contract.statuses import TERMINAL_RUN_STATUSES, RunStatus, SideEffectStatus
from agent_core.home import crash
from agent_core.home.clock import now_iso
from agent_core.home.mounts import pseudo_mount_points, system_folder_reason
from agent_core.storage.dialect_insert import insert_for
from agent_core.storage.engine import Store
from agent_core.storage.schema import artifact_sightings, events, ledger, runs
from agent_core.storage.tables.timeline import append_event
from agent_core.tools.registry import file_writing_tools
from agent_core.tools.sandbox import file_sha256, is_temp_artifact

if TYPE_CHECKING:
    from agent_core.contract.views import RunView
    from agent_core.facade.workspace import Workspace

log = logging.getLogger(__name__)

SETTLE_SECONDS = 0.15  # let a burst of created/modified/closed events become one sighting
SUMMARY_OVER = 5  # a start-up scan that finds more stray files than this reports one summary
SUMMARY_EXAMPLES = 5
SCAN_BATCH = 500  # files stat-checked per query, and sightings written per transaction
SCAN_STOP_WAIT = 30.0  # stop() lets a running start-up scan finish for this long, then cuts it
_CLAIM_KINDS = frozenset({str(EventKind.RUN_STARTED), str(EventKind.RUN_RESUMED)})
_APPROVED_STATUSES = (str(SideEffectStatus.STARTED), str(SideEffectStatus.CONFIRMED))
_WRITE_EVENTS = frozenset({"created", "modified", "closed", "moved"})


class Verdict(StrEnum):
    CONFIRMED = "confirmed"
    """The first physical write of an approved ledger entry."""
    DUPLICATE = "duplicate"
    """Another physical write of content that was already confirmed for the same run."""
    UNEXPECTED = "unexpected"
    """A write that no approved ledger entry explains."""


@dataclass(frozen=True)
class Sighting:
    """One physical write, as recorded by the process that saw it first."""

    path: str
    content_hash: str
    inode_key: str
    verdict: Verdict
    run_ids: tuple[str | None, ...]
    """The runs it was recorded on; (None,) for an event of the home itself."""
    count: int


@dataclass(frozen=True)
class _FileId:
    path: str
    content_hash: str
    inode_key: str


def _identify(path: Path) -> _FileId | None:
    """Hash a regular file; None if it is gone, not a regular file, or changed while hashed."""
    try:
        before = os.lstat(path)
        if not stat.S_ISREG(before.st_mode):
            return None
        digest = file_sha256(path)
        after = os.lstat(path)
    except Exception as exc:  # vanished, or swapped for a symlink mid-way (BriefDeskError)
        log.debug("cannot sight %s: %s", path, exc)
        return None
    same = (before.st_ino, before.st_mtime_ns, before.st_size) == (
        after.st_ino,
        after.st_mtime_ns,
        after.st_size,
    )
    if digest is None or not same:
        return None  # a write in progress: its own events will bring it back
    return _FileId(str(path), digest, f"{after.st_ino}:{after.st_mtime_ns}")


def observe_file(
    store: Store, path: Path, *, watcher_run_id: str | None = None, desk: str | None = None
) -> Sighting | None:
    """Record one sighting of `path` and its timeline event; None if there was nothing new.

    `desk`: in team mode, the desk whose watcher saw it: only that desk's runs and sightings
    count (two machines may hold the same path). None on a home's own file: every run is this
    desk's."""
    if is_temp_artifact(path.name) or _already_sighted(store, path, desk):
        return None
    file_id = _identify(path)
    if file_id is None:
        return None
    with store.write() as conn:
        return _record(conn, file_id, watcher_run_id, desk)


def _sightings_of(desk: str | None) -> ColumnElement[bool]:
    """The sightings a desk's watcher counts: its own (team mode), or all of a home's file."""
    return true() if desk is None else artifact_sightings.c.desk == desk


def _runs_of(desk: str | None) -> ColumnElement[bool]:
    """The runs whose writes a desk's watcher confirms: its own, or all of a home's file."""
    return true() if desk is None else runs.c.desk == desk


def _ledger_of(desk: str | None) -> ColumnElement[bool]:
    if desk is None:
        return true()
    return ledger.c.run_id.in_(select(runs.c.run_id).where(runs.c.desk == desk))


def _already_sighted(store: Store, path: Path, desk: str | None) -> bool:
    """A cheap check by stat alone, so a start-up scan does not hash files it already counted."""
    try:
        st = os.lstat(path)
    except OSError:
        return True  # gone: nothing to sight
    sightings = artifact_sightings.c
    with store.read() as conn:
        return (
            conn.execute(
                select(sightings.path)
                .where(
                    sightings.path == str(path),
                    sightings.inode_key == f"{st.st_ino}:{st.st_mtime_ns}",
                    _sightings_of(desk),
                )
                .limit(1)
            ).first()
            is not None
        )


def _record(
    conn: Connection, fid: _FileId, watcher_run_id: str | None, desk: str | None = None
) -> Sighting | None:
    owner = _owning_entry(conn, fid, desk)
    if owner is not None:
        count = _count(conn, fid, (Verdict.CONFIRMED, Verdict.DUPLICATE), desk, owner.run_id) + 1
        verdict = Verdict.CONFIRMED if count == 1 else Verdict.DUPLICATE
        run_ids: tuple[str | None, ...] = (owner.run_id,)
    else:
        count = _count(conn, fid, (Verdict.UNEXPECTED,), desk) + 1
        verdict = Verdict.UNEXPECTED
        run_ids = _watching_runs(conn, fid.path, watcher_run_id, desk)
    inserted = conn.execute(
        insert_for(conn, artifact_sightings)
        .values(
            path=fid.path,
            content_hash=fid.content_hash,
            inode_key=fid.inode_key,
            run_id=run_ids[0],
            verdict=str(verdict),
            count=count,
            seen_at=now_iso(),
            desk=desk,
        )
        .on_conflict_do_nothing()
    )
    if inserted.rowcount != 1:
        return None  # another process (or an earlier scan) already counted this write
    data: dict[str, Any] = {"path": fid.path, "count": count, "content_hash": fid.content_hash}
    if owner is not None:
        data |= {
            "duplicate": count > 1,
            "call_id": owner.call_id,
            "idempotency_key": owner.idempotency_key,
        }
        append_event(conn, owner.run_id, EventKind.ARTIFACT_CONFIRMED, tool=owner.tool, data=data)
    else:
        approved_here = conn.execute(
            select(ledger.c.idempotency_key)
            .where(ledger.c.target == fid.path, _ledger_of(desk))
            .limit(1)
        ).first()
        data["reason"] = "content_differs" if approved_here else "no_approved_write"
        for run_id in run_ids:
            append_event(conn, run_id, EventKind.ARTIFACT_UNEXPECTED, data=data)
    return Sighting(fid.path, fid.content_hash, fid.inode_key, verdict, run_ids, count)


def _owning_entry(conn: Connection, fid: _FileId, desk: str | None) -> Any:
    """The approved ledger entry this write fulfils: the oldest not yet sighted, else the newest."""
    entries = conn.execute(
        select(ledger)
        .where(
            ledger.c.target == fid.path,
            ledger.c.tool.in_(file_writing_tools()),
            ledger.c.expected_hash == fid.content_hash,
            ledger.c.status.in_(_APPROVED_STATUSES),
            _ledger_of(desk),
        )
        .order_by(ledger.c.started_at)
    ).all()
    for entry in entries:
        if _count(conn, fid, (Verdict.CONFIRMED, Verdict.DUPLICATE), desk, entry.run_id) == 0:
            return entry
    return entries[-1] if entries else None


def _count(
    conn: Connection,
    fid: _FileId,
    verdicts: tuple[Verdict, ...],
    desk: str | None,
    run_id: str | None = None,
) -> int:
    """Sightings of this path with these verdicts (with `run_id`: of this content, for that run)."""
    sightings = artifact_sightings.c
    query = (
        select(func.count())
        .select_from(artifact_sightings)
        .where(
            sightings.path == fid.path,
            sightings.verdict.in_([str(v) for v in verdicts]),
            _sightings_of(desk),
        )
    )
    if run_id is not None:
        query = query.where(sightings.run_id == run_id, sightings.content_hash == fid.content_hash)
    return int(conn.execute(query).scalar_one())


def _watching_runs(
    conn: Connection, path: str, watcher_run_id: str | None, desk: str | None
) -> tuple[str | None, ...]:
    """Where an unexpected write is recorded: the watcher's run once it is claimed, else the runs
    in progress on that folder, else the home itself (None)."""
    if watcher_run_id is not None:
        status = conn.execute(
            select(runs.c.status).where(runs.c.run_id == watcher_run_id)
        ).scalar_one_or_none()
        if status is not None and status != RunStatus.CREATED:
            return (watcher_run_id,)
    rows = conn.execute(
        select(runs.c.run_id, runs.c.status, runs.c.artifacts_dir)
        .where(_runs_of(desk))
        .order_by(runs.c.updated_at.desc())
    ).all()
    # `created`: nobody has claimed it, and its first event must be run_started.
    live = tuple(
        r.run_id
        for r in rows
        if r.status not in TERMINAL_RUN_STATUSES
        and r.status != RunStatus.CREATED
        and Path(path).is_relative_to(r.artifacts_dir)
    )
    return live or (None,)


def iter_artifact_files(root: Path) -> Iterator[Path]:
    """Files under `root`, temp files skipped. Symlinked folders and pseudo file systems
    mounted inside (/proc, sysfs, ...) are not entered; the caller lstat()s what it yields."""
    skipped = pseudo_mount_points()
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if Path(folder, d) not in skipped)
        for name in sorted(filenames):
            if not is_temp_artifact(name):
                yield Path(folder) / name


def _unsighted(store: Store, paths: Sequence[Path], desk: str | None) -> list[Path]:
    """The regular files of `paths` whose current write has no sighting yet (one query)."""
    current: dict[str, Path] = {}
    keys: dict[str, str] = {}
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError:
            continue  # gone
        if stat.S_ISREG(st.st_mode):  # no fifo, socket, device or symlink is ever opened
            current[str(path)] = path
            keys[str(path)] = f"{st.st_ino}:{st.st_mtime_ns}"
    if not current:
        return []
    sightings = artifact_sightings.c
    with store.read() as conn:
        seen = conn.execute(
            select(sightings.path, sightings.inode_key).where(
                sightings.path.in_(list(current)), _sightings_of(desk)
            )
        ).all()
    known = {(row.path, row.inode_key) for row in seen}
    return [p for name, p in current.items() if (name, keys[name]) not in known]


def _targeted(conn: Connection, paths: Sequence[str], desk: str | None) -> set[str]:
    """The paths of `paths` that any ledger entry names as its target."""
    targeted: set[str] = set()
    for start in range(0, len(paths), SCAN_BATCH):
        batch = list(paths[start : start + SCAN_BATCH])
        targeted.update(
            conn.execute(
                select(ledger.c.target).where(ledger.c.target.in_(batch), _ledger_of(desk))
            ).scalars()
        )
    return targeted


def record_scan(
    store: Store,
    root: Path,
    found: Sequence[_FileId],
    watcher_run_id: str | None,
    desk: str | None = None,
) -> list[Sighting]:
    """Record what a scan of `root` found: approved, tampered and a few stray files one by one;
    more than SUMMARY_OVER plain stray files as sightings and ONE summary event."""
    if not found:
        return []
    recorded: list[Sighting] = []
    with store.write() as conn:
        # A path no ledger entry names is a plain stray file: nothing approved it, nothing of
        # a run is at stake. Approved writes and tampered ones (content_differs) matter one
        # by one, whatever their number.
        targeted = _targeted(conn, [f.path for f in found], desk)
        stray = [f for f in found if f.path not in targeted]
        summarized = set(stray) if len(stray) > SUMMARY_OVER else set()
        for fid in found:
            if fid not in summarized and (sighting := _record(conn, fid, watcher_run_id, desk)):
                recorded.append(sighting)
        if summarized:
            recorded += _record_summary(conn, root, stray, watcher_run_id, desk)
    return recorded


def _record_summary(
    conn: Connection,
    root: Path,
    stray: Sequence[_FileId],
    watcher_run_id: str | None,
    desk: str | None,
) -> list[Sighting]:
    run_ids = _watching_runs(conn, str(root), watcher_run_id, desk)
    sightings = artifact_sightings.c
    recorded: list[Sighting] = []
    for start in range(0, len(stray), SCAN_BATCH):
        batch = stray[start : start + SCAN_BATCH]
        paths = [f.path for f in batch]
        rows = conn.execute(
            select(
                sightings.path, sightings.content_hash, sightings.inode_key, sightings.verdict
            ).where(sightings.path.in_(paths), _sightings_of(desk))
        ).all()
        known = {(r.path, r.content_hash, r.inode_key) for r in rows}
        earlier: dict[str, int] = {}
        for r in rows:
            if r.verdict == Verdict.UNEXPECTED:
                earlier[r.path] = earlier.get(r.path, 0) + 1
        new = [f for f in batch if (f.path, f.content_hash, f.inode_key) not in known]
        if not new:
            continue
        seen_at = now_iso()
        batch_sightings = [
            Sighting(
                f.path,
                f.content_hash,
                f.inode_key,
                Verdict.UNEXPECTED,
                run_ids,
                earlier.get(f.path, 0) + 1,
            )
            for f in new
        ]
        rows_to_insert = [
            {
                "path": b.path,
                "content_hash": b.content_hash,
                "inode_key": b.inode_key,
                "run_id": run_ids[0],
                "verdict": str(b.verdict),
                "count": b.count,
                "seen_at": seen_at,
                "desk": desk,
            }
            for b in batch_sightings
        ]
        conn.execute(insert_for(conn, artifact_sightings).on_conflict_do_nothing(), rows_to_insert)
        recorded += batch_sightings
    if recorded:
        data: dict[str, Any] = {
            "path": str(root),
            "count": len(recorded),
            "summary": True,
            "reason": "present_at_start",
            "examples": [
                Path(s.path).relative_to(root).as_posix() for s in recorded[:SUMMARY_EXAMPLES]
            ],
        }
        for run_id in run_ids:
            append_event(conn, run_id, EventKind.ARTIFACT_UNEXPECTED, data=data)
    return recorded


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: ArtifactWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type not in _WRITE_EVENTS:
            return
        raw = event.dest_path if event.event_type == "moved" else event.src_path
        path = Path(os.fsdecode(raw))
        if event.is_directory:
            # A folder created or moved in brings files without events of their own. A folder
            # "modified" is only a file coming or going inside it, which has its own event:
            # rescanning the folder for it made each write re-sight every file beside it and
            # pushed their settle time out while a run kept writing.
            if event.event_type in ("created", "moved"):
                self.watcher.schedule_tree(path)
        else:
            self.watcher.schedule(path)


class ArtifactWatcher:
    """Watches `root` and records sightings (see the module docstring for the verdicts).

    `run_id`: the run this watcher was started for (the CLI's `run`/`resume`); unexpected
    writes are then recorded on that run, once it is claimed. Thread-safe; `stop()` records
    pending sightings and lets a running start-up scan finish (SCAN_STOP_WAIT at most).
    """

    def __init__(
        self,
        store: Store,
        root: Path,
        *,
        run_id: str | None = None,
        settle: float = SETTLE_SECONDS,
        desk: str | None = None,
    ) -> None:
        self.store, self.run_id, self.settle, self.desk = store, run_id, settle, desk
        self.root = Path(root).expanduser().resolve()
        self.scanned = threading.Event()
        """Set once the start-up scan has ended (or was skipped)."""
        self._pending: dict[Path, float] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._claimed = threading.Event()  # the watcher's run has its run_started/run_resumed
        self._cut_scan = threading.Event()
        self._unfollow: Any = None
        self._observer: Any = None
        self._worker: threading.Thread | None = None
        self._scanner: threading.Thread | None = None

    def start(self) -> ArtifactWatcher:
        """Observe the root and scan it in the background; returns at once."""
        reason = system_folder_reason(self.root)
        if reason is not None:  # a run is refused such a folder; an old one is not watched
            log.warning("not watching artifacts: %s", reason)
            self.scanned.set()
            return self
        self.root.mkdir(parents=True, exist_ok=True)
        self._stopping = False
        self.scanned.clear()
        self._cut_scan.clear()
        self._wait_for_claim()
        self._worker = threading.Thread(target=self._work, name="artifact-watcher", daemon=True)
        self._worker.start()
        observer = Observer()
        observer.schedule(_Handler(self), str(self.root), recursive=True)
        observer.daemon = True
        observer.start()  # before the scan, so nothing written during the scan is missed
        self._observer = observer
        self._scanner = threading.Thread(
            target=self._start_up_scan, name="artifact-scan", daemon=True
        )
        self._scanner.start()
        return self

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
            self._observer = None
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._scanner is not None:
            self._scanner.join(timeout=SCAN_STOP_WAIT)
            self._cut_scan.set()  # past the wait: record what was read, leave the rest
            self._scanner.join(timeout=30)
            self._scanner = None
        if self._worker is not None:
            self._worker.join(timeout=30)
            self._worker = None
        if self._unfollow is not None:
            self._unfollow()
            self._unfollow = None

    def scan(self) -> list[Sighting]:
        """Sight every file under the root now; returns what was newly recorded."""
        found: list[_FileId] = []
        batch: list[Path] = []
        for path in iter_artifact_files(self.root):
            batch.append(path)
            if len(batch) >= SCAN_BATCH:
                found += self._identify_all(batch)
                batch = []
            if self._cut_scan.is_set():
                break
        found += self._identify_all(batch)
        return record_scan(self.store, self.root, found, self.run_id, self.desk)

    def _identify_all(self, paths: list[Path]) -> list[_FileId]:
        found: list[_FileId] = []
        for path in _unsighted(self.store, paths, self.desk) if paths else []:
            if self._cut_scan.is_set():
                break
            if (fid := _identify(path)) is not None:
                found.append(fid)
        return found

    def _start_up_scan(self) -> None:
        try:
            with self._cond:  # a run's sightings wait for its claim (or for stop)
                while not self._claimed.is_set() and not self._stopping:
                    self._cond.wait()
            if self._claimed.is_set():  # never claimed: the next watcher's scan sees the files
                self.scan()
        except Exception:  # a watcher must outlive a bad file or a locked database
            log.exception("artifact watcher could not scan %s", self.root)
        finally:
            self.scanned.set()

    def _wait_for_claim(self) -> None:
        """Open the gate now (no run, or a run already claimed), or when its claim commits."""
        if self.run_id is None:
            self._claimed.set()
            return
        self._unfollow = self.store.follow_events(self._on_events)  # first: no claim is missed
        with self.store.read() as conn:
            status = conn.execute(
                select(runs.c.status).where(runs.c.run_id == self.run_id)
            ).scalar_one_or_none()
        if status is not None and status != RunStatus.CREATED:
            self._open_gate()

    def _on_events(self, committed: list[Event]) -> None:
        if any(e.run_id == self.run_id and e.kind in _CLAIM_KINDS for e in committed):
            self._open_gate()

    def _open_gate(self) -> None:
        with self._cond:
            self._claimed.set()
            self._cond.notify_all()

    def schedule(self, path: Path) -> None:
        if is_temp_artifact(path.name) or not path.is_relative_to(self.root):
            return
        with self._cond:
            self._pending[path] = time.monotonic() + self.settle
            self._cond.notify_all()

    def schedule_tree(self, folder: Path) -> None:
        if folder.is_dir() and not folder.is_symlink():
            for path in iter_artifact_files(folder):
                self.schedule(path)

    def _work(self) -> None:
        while True:
            with self._cond:
                due = self._take_due()
                while not due and not self._stopping:
                    wake = min(self._pending.values(), default=None)
                    if not self._claimed.is_set():
                        wake = None  # held until the run is claimed: its claim notifies
                    self._cond.wait(None if wake is None else max(0.0, wake - time.monotonic()))
                    due = self._take_due()
                if self._stopping:
                    due += list(self._pending)  # flush: a CLI exiting right after its write
                    self._pending.clear()
            for path in due:
                self._observe(path)
            if self._stopping:
                return

    def _take_due(self) -> list[Path]:
        if not self._claimed.is_set():
            return []
        now = time.monotonic()
        due = [p for p, at in self._pending.items() if at <= now]
        for path in due:
            del self._pending[path]
        return due

    def _observe(self, path: Path) -> Sighting | None:
        try:
            return observe_file(self.store, path, watcher_run_id=self.run_id, desk=self.desk)
        except Exception:  # a watcher must outlive one bad file or a locked database
            log.exception("artifact watcher could not record %s", path)
            return None


@contextmanager
def watching(
    store: Store, root: Path, *, run_id: str | None = None, desk: str | None = None
) -> Iterator[ArtifactWatcher]:
    """`with watching(ws.store, artifacts_dir, run_id=rid): ws.drive(rid)`."""
    watcher = ArtifactWatcher(store, root, run_id=run_id, desk=desk).start()
    try:
        yield watcher
    finally:
        watcher.stop()


def drive_watched(ws: Workspace, run_id: str, *, confirm_timeout: float = 2.0) -> RunView:
    """`ws.drive(run_id)` with a watcher on the run's artifacts folder (the CLI's run/resume).

    Before returning it waits up to `confirm_timeout` s for the confirmation of the run's own
    writes. A run that has already ended is driven (a no-op) without watching, so resuming it
    changes nothing; a retryable failure (`storage_full`) is continued, so it is watched.
    """
    run = ws.get_run(run_id)
    if RunStatus(run["status"]).is_terminal and not run.get("ready_to_continue"):
        return ws.drive(run_id)
    ws.check_run_artifacts(run["artifacts"])  # never watch (or write) a folder holding the home
    if crash.watch_skipped_then_die():  # drill: killed before its watcher confirmed the writes
        ws.drive(run_id)
        crash.die()
    with watching(ws.store, Path(run["artifacts"]), run_id=run_id, desk=ws.team_desk):
        result = ws.drive(run_id)
        wait_for_confirmations(ws.store, run_id, timeout=confirm_timeout)
    return result


def unconfirmed_writes(store: Store, run_id: str) -> list[str]:
    """Targets of the run's confirmed `save_brief` entries that have no artifact_confirmed yet."""
    with store.read() as conn:
        written = conn.execute(
            select(ledger.c.target).where(
                ledger.c.run_id == run_id,
                ledger.c.tool.in_(file_writing_tools()),
                ledger.c.status == str(SideEffectStatus.CONFIRMED),
            )
        )
        targets = {r.target for r in written if r.target}
        if not targets:
            return []
        confirmed = conn.execute(
            select(events.c.data_json).where(
                events.c.run_id == run_id, events.c.kind == str(EventKind.ARTIFACT_CONFIRMED)
            )
        )
        seen = {json.loads(r.data_json).get("path") for r in confirmed}
    return sorted(targets - seen)


def wait_for_confirmations(store: Store, run_id: str, timeout: float = 2.0) -> bool:
    """True once every confirmed `save_brief` of the run has its artifact_confirmed event."""
    deadline = time.monotonic() + timeout
    while unconfirmed_writes(store, run_id):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def artifact_states(store: Store, root: Path, desk: str | None = None) -> list[dict[str, Any]]:
    """The files under `root` now, each with the verdict recorded for its current write.

    `state`: confirmed | duplicate | unexpected | unseen (no watcher has sighted this write).
    Reads the file system: call it off the GUI thread.
    """
    root = Path(root).expanduser().resolve()
    files: list[tuple[Path, os.stat_result]] = []
    if root.is_dir():
        for path in iter_artifact_files(root):
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                files.append((path, st))
    with store.read() as conn:
        sightings: dict[str, list[Any]] = {}
        paths = [str(p) for p, _ in files]
        query = select(artifact_sightings).where(
            artifact_sightings.c.path.in_(paths), _sightings_of(desk)
        )
        for row in conn.execute(query.order_by(artifact_sightings.c.seen_at)):
            sightings.setdefault(row.path, []).append(row)
    states = []
    for path, st in files:
        seen = sightings.get(str(path), [])
        key = f"{st.st_ino}:{st.st_mtime_ns}"
        current = next((r for r in reversed(seen) if r.inode_key == key), None)
        states.append(
            {
                "path": str(path),
                "relative": path.relative_to(root).as_posix(),
                "size": st.st_size,
                "modified": datetime.fromtimestamp(st.st_mtime, UTC).isoformat(timespec="seconds"),
                "state": current.verdict if current else "unseen",
                "count": current.count if current else 0,
                "run_id": current.run_id if current else None,
                "writes_seen": len(seen),
            }
        )
    return sorted(states, key=lambda state: state["relative"])
