"""Command-line interface: `deepresearch "question"` and session commands."""

from deepresearch.cli.main import main

__all__ = ["main"]
