"""The abstract ruleset's views."""
