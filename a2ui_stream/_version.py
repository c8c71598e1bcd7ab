"""The package's version: written once here, read by pyproject.toml and ``--version``."""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
