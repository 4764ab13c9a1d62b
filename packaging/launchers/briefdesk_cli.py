"""The bundle's `briefdesk-cli`: the same entry point as the wheel's console script (no Qt)."""

from __future__ import annotations

import sys

from agent_core.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
