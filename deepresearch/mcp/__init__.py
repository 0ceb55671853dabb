"""MCP: the SDK as an MCP server (``deepresearch mcp``, :mod:`deepresearch.mcp.server`) and
MCP servers' search tools as search providers (:mod:`deepresearch.mcp.search`).

Both need the ``mcp`` extra: ``pip install 'deepresearch[mcp]'``. Nothing is imported here,
so the providers layer can use the search client without pulling in the server."""
