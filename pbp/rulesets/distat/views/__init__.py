"""The Distat ruleset's views, and the views of the roster it keeps for every scene."""
