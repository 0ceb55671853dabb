"""`deepresearch mcp`: the CLI entry, kept free of the MCP SDK so other commands (and
their --help) work without the ``mcp`` extra."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def mcp_main(argv: list[str], load_config: Callable[..., Any] | None = None) -> int:
    """Parse `deepresearch mcp` options and serve (``load_config`` is unused: the server
    takes its own, smaller set of options; see ``deepresearch mcp --help``)."""
    from deepresearch.mcp.server import main

    return main(argv)
