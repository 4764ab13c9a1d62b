"""Windows, panels and dialogs of the desktop app."""
