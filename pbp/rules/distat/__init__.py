"""Distat, the diceless play-by-post combat system (RULES §1)."""
