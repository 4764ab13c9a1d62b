"""The coding agents a person already runs (Claude Code, Codex, Gemini CLI, MCP clients): the
hook they call before and after each tool, the runs that record their sessions, connecting
BriefDesk's hook into their settings, and BriefDesk as an MCP server. Never imports the Agents
SDK: a hook answers a read in well under a second."""
