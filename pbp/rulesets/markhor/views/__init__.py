"""The markhor ruleset's views."""
