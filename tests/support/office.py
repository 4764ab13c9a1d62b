"""LibreOffice as the tests' document maker: one way to call it.

Each call gets a user profile of its own: two soffice processes on one profile (xdist's workers,
a second fixture) wait on each other's lock or fail, and the person's own profile stays untouched.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path


def soffice_convert(
    target: str,
    sources: Sequence[Path],
    outdir: Path,
    *,
    infilter: str | None = None,
    timeout: float = 300,
) -> None:
    """Convert `sources` to `target` (`pdf`, `docx`, `pdf:writer_pdf_Export`...) into `outdir`,
    in one headless soffice run; raises when it fails."""
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as profile:
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation={Path(profile).as_uri()}",
                "--headless",
                *([f"--infilter={infilter}"] if infilter else []),
                "--convert-to",
                target,
                "--outdir",
                str(outdir),
                *map(str, sources),
            ],
            check=True,
            capture_output=True,
            timeout=timeout,
        )
