"""The distat ruleset's engine side."""
