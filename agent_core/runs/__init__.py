"""The run layer: one run's lifecycle, progress, driver, gate and executor (no Qt, no CLI)."""
