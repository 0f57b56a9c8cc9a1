"""Each ruleset's part of a character sheet: its value type, the keys it reads and the checks
they get, one module per ruleset behind ``sheets.registry`` (docs/rulesets.md)."""
