"""Atheris fuzz harnesses (dev only; see README.md). Not part of the installed package."""
