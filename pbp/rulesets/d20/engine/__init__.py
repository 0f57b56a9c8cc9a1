"""The d20 ruleset's engine side."""
