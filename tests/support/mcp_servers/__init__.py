"""Small MCP servers of our own, for the faults real servers do not show on demand."""
