"""The audit log as a file a person can hand on: JSON (the CLI's entry objects) or CSV.

Written atomically (temp file + replace) so an export that fails leaves no half file behind.
CSV cells that a spreadsheet would run as a formula are prefixed with `'` (CSV injection):
a resource path or a detail comes from a model or a document.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import AuditEntryView

FORMATS = ("json", "csv")
COLUMNS = (
    "id",
    "at",
    "run_id",
    "entry",
    "principal",
    "tool",
    "decision",
    "code",
    "rule_id",
    "resource",
    "arg_hash",
    "detail",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def audit_text(entries: list[AuditEntryView], fmt: str) -> str:
    if fmt == "json":
        return json.dumps({"api": 1, "entries": entries}, ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for entry in entries:
            writer.writerow([_cell(entry.get(c)) for c in COLUMNS])
        return out.getvalue()
    raise BriefDeskError(ErrorCode.INVALID_ARGUMENTS, f"Export as json or csv, not {fmt!r}.")


def _cell(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def write_audit_export(path: Path, entries: list[AuditEntryView], fmt: str) -> None:
    text = audit_text(entries, fmt)
    folder = path.parent
    if not folder.is_dir():
        raise BriefDeskError(ErrorCode.NOT_FOUND, f"The folder {folder} does not exist.")
    fd, temp = tempfile.mkstemp(prefix=".audit-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS, f"Could not write {path}: {exc.strerror or exc}."
        ) from exc
