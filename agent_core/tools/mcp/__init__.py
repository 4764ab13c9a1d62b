"""Tools from MCP servers: the servers a desk registered, how they start, what they offer.

- `servers.py`: names, the `--env` syntax, the minimal environment a server starts with
- `launch.py`: the stdlib-only launcher that execs a server (dies with BriefDesk)
- `client.py`: start a server over stdio, list its tools, call one with a timeout
- `specs.py`: an MCP tool as BriefDesk sees it (model name, tier, argument model)

The `mcp` SDK is imported only by `client.py`, and only where it is used.
"""
