"""The command line: the only package that imports click or rich. ``raten.cli:main`` is the entry point."""

from raten.cli.main import main

__all__ = ["main"]
