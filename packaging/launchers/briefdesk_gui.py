"""The bundle's `briefdesk`: the desktop app, the same entry point as the wheel's gui-script."""

from __future__ import annotations

import sys

from desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
