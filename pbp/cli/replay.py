"""`pbp replay`."""

from __future__ import annotations

from pbp.cli.app import app

__all__ = ["app"]
