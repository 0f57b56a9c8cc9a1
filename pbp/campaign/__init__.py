"""Campaign files: GMs, characters and their sheets, options (SPEC §3). Each ruleset's part
of a character sheet and of the options is its own module under ``sheets/``, named only by
``sheets.registry``."""
