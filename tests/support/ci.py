"""One answer to "is this CI?": there a test that needs a system part fails instead of skipping.

CI systems set `CI` to `true` (GitHub, GitLab), `1` or `yes`; all count. Read once per call, so a
test that changes the environment sees its own value.
"""

from __future__ import annotations

import os

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_or_skip(message: str) -> None:
    """A system part is missing: fail under CI (it must run there), skip elsewhere."""
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)
