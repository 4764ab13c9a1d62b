"""Reusable test fixtures that start real services (no mocks)."""
