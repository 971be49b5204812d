"""The package version, in one place that imports nothing (faces and SQL files name it)."""

__version__ = "0.1.0"
