"""Runs the storage conformance suite against every backend in BACKEND_FACTORIES.

Another package's backend runs the same suite by defining a `backend` fixture and importing
`tests.core.conformance.suite` the same way.
"""

from __future__ import annotations

from tests.core.conformance.suite import *  # noqa: F403
