"""The abstract ruleset's engine side."""
