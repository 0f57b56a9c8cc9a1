"""The markhor ruleset's engine side."""
