"""BriefDesk's desktop app (PySide6): windows, Qt models and the bridge to agent_core."""
