"""Desktop notifications: `bus` speaks to the desktop's notification server, `decisions` says
when a decision that waits deserves one (and what it says)."""

from __future__ import annotations
