"""`python -m agent_core.cli`: the same as `briefdesk-cli`."""

from __future__ import annotations

import sys

from agent_core.cli.main import main

if __name__ == "__main__":  # not when a tool imports every module
    sys.exit(main())
