"""Qt models that adapt core state (runs, timeline events) for the views."""
