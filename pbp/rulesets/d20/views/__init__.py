"""The d20 ruleset's views."""
