"""Campaign files: GMs, characters and their sheets, options (SPEC §3)."""
